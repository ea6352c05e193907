//! The web client: a Yew app compiled to WebAssembly that plays Nine Men's Morris and Ultimate
//! tic-tac-toe hot-seat in one tab. Every rule decision comes from the [`engine`] crate.
//!
//! [`model`] holds the pages' states and transitions with no web dependency (tested natively);
//! [`ui`] renders them with Yew and turns clicks and keys into model events.
//!
//! ```
//! use client::model::morris::{Event, Model};
//! use engine::morris::Point;
//!
//! let mut page = Model::new();
//! page.update(Event::Activate(Point::from_name("d6").unwrap()));
//! assert_eq!(page.game().turns(), 1);
//! assert_eq!(page.status(), "Au tour de Rouge : posez un pion.");
//! ```
#![forbid(unsafe_code)]
// A bundle built with one feature leaves out the others' pages, and with them the callers of
// some shared helpers; the default build (every feature: native tests, clippy) still catches
// code no page uses.
#![cfg_attr(
    not(all(
        feature = "local",
        feature = "remote",
        feature = "watch",
        feature = "paired"
    )),
    allow(dead_code, unused_imports)
)]
#![warn(missing_docs)]

pub mod i18n;
pub mod model;
pub mod ui;
