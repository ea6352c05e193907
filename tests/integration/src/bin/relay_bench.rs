//! Load benchmark of the relay against the stock matchbox full-mesh server (placeholder).
fn main() {}
