//! Search speed of the computer opponent at fixed budgets: `cargo bench -p engine --bench ai`.
//! Morris reports nodes (whole turns played inside the search) per second, Ultimate tic-tac-toe
//! playouts per second. Each bench asserts the budget was spent, so an early exit cannot pass
//! for speed.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::ai::{self, Level, Limits};
use engine::{meta::Meta, morris::Morris, record, GameKind};
use std::hint::black_box;

const MORRIS_NODES: u64 = 200_000;
const META_PLAYOUTS: u64 = 20_000;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("ai");
    group.sample_size(10);

    // Placement, and the moving stage after a capture.
    for (name, rec) in [
        ("morris placement", "d6 f4 b4 d2 d5 e4"),
        (
            "morris moving",
            "b6 f4 d2 b4 f2 b2 g1 g4 e4 c4 a4 c3 c5 d3 e3 e5 d7 d6 a4-a1 g4-g7 d2-d1xf4 b4-a4 \
             b6-b4 g7-g4 d1-d2",
        ),
    ] {
        let Ok(g) = record::replay(Morris::new(), rec) else {
            panic!("{name}: bad record");
        };
        let limits = Limits {
            nodes: MORRIS_NODES,
            ..Level::Strong.limits(GameKind::Morris)
        };
        group.throughput(Throughput::Elements(MORRIS_NODES));
        group.bench_function(name, |b| {
            b.iter(|| {
                let r = ai::search_morris(black_box(&g), &limits, &mut || false, 1).unwrap();
                assert_eq!(r.nodes, MORRIS_NODES, "{r:?}");
            })
        });
    }

    let g = record::replay(Meta::new(), "e5 e4").unwrap();
    let limits = Limits {
        nodes: META_PLAYOUTS,
        ..Level::Strong.limits(GameKind::Meta)
    };
    group.throughput(Throughput::Elements(META_PLAYOUTS));
    group.bench_function("meta playouts", |b| {
        b.iter(|| {
            let r = ai::search_meta(black_box(&g), &limits, &mut || false, 1).unwrap();
            assert_eq!(r.nodes, META_PLAYOUTS);
        })
    });
    group.bench_function("meta uct baseline", |b| {
        b.iter(|| {
            let r = ai::uct_baseline(black_box(&g), META_PLAYOUTS, 1).unwrap();
            assert_eq!(r.nodes, META_PLAYOUTS);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
