//! The computer's Web Worker in the page: the only code that touches it. It runs the model's
//! [`Effect`]s — a request, a cancellation, a delay — and reports the answers as [`Input`]s.
//!
//! `worker.js` (a few lines of JavaScript, bundled with the client) fetches the worker's script
//! and wasm on the first request and keeps them in memory, so that a new worker starts without
//! any request. A search cannot be interrupted inside the worker, so a cancellation terminates
//! it; the next request starts a new one. docs/architecture.md has the protocol.

use super::browser;
use crate::model::computer::{Ask, Effect, Input};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use yew::Callback;

#[wasm_bindgen(module = "/src/ui/worker.js")]
extern "C" {
    #[wasm_bindgen(js_name = startWorker, catch)]
    async fn start_worker(report: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = ask)]
    #[allow(clippy::too_many_arguments)]
    fn post(
        worker: &JsValue,
        token: u32,
        game: &str,
        max_turns: u16,
        rules: &str,
        record: &str,
        pending: &str,
        level: u32,
        seed: u32,
        movetime: u32,
    );
    fn stop(worker: &JsValue);
}

/// The answer handler `worker.js` calls: token (-1: the worker crashed), turn (none: the search
/// failed), nodes, milliseconds.
type Report = Closure<dyn FnMut(i32, Option<String>, f64, f64)>;

/// A page's worker: at most one, started for the first request and after a cancellation.
pub struct Runner {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    worker: Option<JsValue>,
    /// A worker is being started (the first time: the assets are being fetched).
    starting: bool,
    /// The request waiting for the worker to start.
    waiting: Option<Ask>,
    /// The request being searched, and when it was sent (`performance.now()`).
    current: Option<(u32, f64)>,
    report: Callback<Input>,
    /// `report` for `worker.js`, made with the first worker.
    on_answer: Option<Report>,
}

impl Runner {
    /// A runner reporting to `report`; nothing is loaded before the first request.
    pub fn new(report: Callback<Input>) -> Runner {
        Runner {
            inner: Rc::new(RefCell::new(Inner {
                worker: None,
                starting: false,
                waiting: None,
                current: None,
                report,
                on_answer: None,
            })),
        }
    }

    /// Carries out one effect.
    pub fn run(&self, effect: Effect) {
        match effect {
            Effect::Ask(ask) => self.ask(ask),
            Effect::Cancel => self.stop(),
            Effect::Wait { token, ms } => {
                let report = self.inner.borrow().report.clone();
                spawn_local(async move {
                    browser::sleep(ms.into()).await;
                    report.emit(Input::Land { token });
                });
            }
        }
    }

    /// Stops the search under way, if any (the model cancelled it, or the page goes).
    pub fn stop(&self) {
        let mut i = self.inner.borrow_mut();
        i.waiting = None;
        i.current = None;
        if let Some(w) = i.worker.take() {
            stop(&w);
        }
    }

    fn ask(&self, ask: Ask) {
        let mut i = self.inner.borrow_mut();
        if let Some(w) = &i.worker {
            send(w, &ask);
            i.current = Some((ask.token, browser::performance_now()));
            return;
        }
        i.waiting = Some(ask);
        if i.starting {
            return;
        }
        i.starting = true;
        let weak = Rc::downgrade(&self.inner);
        let on_answer = i.on_answer.get_or_insert_with(|| {
            let weak = weak.clone();
            Closure::new(move |token, turn, nodes, ms| {
                if let Some(inner) = weak.upgrade() {
                    answered(&inner, token, turn, nodes, ms);
                }
            })
        });
        let on_answer = on_answer.as_ref().clone();
        spawn_local(async move {
            let worker = start_worker(&on_answer).await;
            let Some(inner) = weak.upgrade() else { return };
            let mut i = inner.borrow_mut();
            i.starting = false;
            match (worker, i.waiting.take()) {
                (Ok(w), waiting) => {
                    if let Some(ask) = waiting {
                        send(&w, &ask);
                        i.current = Some((ask.token, browser::performance_now()));
                    }
                    i.worker = Some(w);
                }
                (Err(_), Some(ask)) => {
                    let report = i.report.clone();
                    drop(i);
                    report.emit(Input::Failed { token: ask.token });
                }
                (Err(_), None) => {}
            }
        });
    }
}

fn send(w: &JsValue, ask: &Ask) {
    post(
        w,
        ask.token,
        ask.kind.as_str(),
        ask.max_turns,
        &ask.rules,
        &ask.record,
        &ask.pending,
        ask.level.number(),
        ask.seed,
        ask.movetime_ms,
    );
}

/// Reports the worker's answer; a worker whose search failed or that crashed is dropped.
fn answered(inner: &RefCell<Inner>, token: i32, turn: Option<String>, nodes: f64, ms: f64) {
    let mut i = inner.borrow_mut();
    let current = i.current.take();
    let Some(token) = u32::try_from(token).ok().or(current.map(|c| c.0)) else {
        return;
    };
    let input = match turn {
        Some(turn) => Input::Reply {
            token,
            turn,
            nodes: nodes as u64,
            search_ms: ms.round() as u32,
            reply_ms: current
                .map_or(0.0, |c| browser::performance_now() - c.1)
                .round() as u32,
        },
        None => {
            // A search that threw may leave its wasm unusable: the next request starts afresh.
            if let Some(w) = i.worker.take() {
                stop(&w);
            }
            Input::Failed { token }
        }
    };
    let report = i.report.clone();
    drop(i);
    report.emit(input);
}
