//! Running the `engine` binary, for the command-line tests (`cli.rs`, `cli_rules.rs`).

#![allow(dead_code)] // each test file uses its part

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `engine` with these arguments and this standard input.
pub fn engine(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("engine binary runs");
    // The engine may exit (usage error) before reading: a broken pipe is fine here.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// Its standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Its standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
