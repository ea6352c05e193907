//! Perft speed of both games: `cargo bench -p engine`. Each bench asserts its count, so a fast
//! wrong answer cannot pass for a result.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use engine::{meta, morris};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);

    let start = morris::Morris::new();
    group.throughput(Throughput::Elements(5_140_800));
    group.bench_function("morris depth 5", |b| {
        b.iter(|| assert_eq!(morris::perft::perft(black_box(&start), 5), 5_140_800))
    });

    let start = meta::Meta::new();
    group.throughput(Throughput::Elements(33_782_544));
    group.bench_function("meta depth 7", |b| {
        b.iter(|| assert_eq!(meta::perft::perft(black_box(&start), 7), 33_782_544))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
