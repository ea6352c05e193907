//! The `signaling` binary's command line: the built binary is run with flags and environment
//! variables (none inherited from the caller), and what it prints and its exit code are checked.

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Output, Stdio},
    sync::mpsc,
    time::Duration,
};

use base64::Engine as _;
use hmac::{Hmac, Mac};

const LIMIT: Duration = Duration::from_secs(10);

/// The binary with a clean environment: no `MOULIN_*` variable of the caller's leaks in.
fn relay() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_signaling"));
    command.env_clear();
    command
}

/// Runs to the end; the relay must not get as far as listening.
fn run(command: &mut Command) -> Output {
    let output = command
        .args(["--addr", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("Relay listening"), "it started: {stdout}");
    output
}

fn assert_usage_error(output: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(stderr.contains(message), "stderr: {stderr}");
}

#[test]
fn a_turn_secret_with_a_static_credential_is_a_usage_error() {
    let message = "--turn-secret (MOULIN_TURN_SECRET) cannot be used with --turn-credential";
    let output = run(relay().args([
        "--turn-secret",
        "north",
        "--turn-credential",
        "s3cret",
        "--ice-server",
        "turn:turn.example.org:3478",
    ]));
    assert_usage_error(&output, message);
    // The same from the environment, and with a user name instead of a credential.
    let output = run(relay()
        .env("MOULIN_TURN_SECRET", "north")
        .env("MOULIN_TURN_CREDENTIAL", "s3cret")
        .env("MOULIN_ICE_SERVERS", "turn:turn.example.org:3478"));
    assert_usage_error(&output, message);
    let output = run(relay()
        .env("MOULIN_TURN_SECRET", "north")
        .env("MOULIN_TURN_USERNAME", "moulin")
        .env("MOULIN_ICE_SERVERS", "turn:turn.example.org:3478"));
    assert_usage_error(&output, "or --turn-username (MOULIN_TURN_USERNAME)");
}

#[test]
fn a_turn_secret_without_a_turn_url_is_a_usage_error() {
    let message = "--turn-secret (MOULIN_TURN_SECRET) needs a turn: or turns: URL in --ice-server";
    assert_usage_error(&run(relay().args(["--turn-secret", "north"])), message);
    let output = run(relay()
        .env("MOULIN_TURN_SECRET", "north")
        .env("MOULIN_ICE_SERVERS", "stun:turn.example.org:3478"));
    assert_usage_error(&output, message);
}

#[test]
fn a_trusted_proxy_that_is_no_network_is_a_usage_error() {
    for bad in ["10.0.0.0/33", "proxy.example"] {
        let output = run(relay().args(["--trusted-proxy", "127.0.0.1", "--trusted-proxy", bad]));
        assert_usage_error(
            &output,
            &format!("`{bad}` is not an IP address or network (e.g. 10.0.0.1, 10.0.0.0/8, ::1)"),
        );
    }
}

#[test]
fn an_empty_secret_and_a_ttl_under_a_second_are_usage_errors() {
    let output = run(relay()
        .env("MOULIN_TURN_SECRET", "")
        .env("MOULIN_ICE_SERVERS", "turn:turn.example.org:3478"));
    assert_usage_error(&output, "--turn-secret (MOULIN_TURN_SECRET) is empty");
    let output = run(relay()
        .args(["--turn-ttl", "500ms", "--turn-secret", "north"])
        .args(["--ice-server", "turn:turn.example.org:3478"]));
    assert_usage_error(&output, "--turn-ttl (MOULIN_TURN_TTL) must be at least 1s");
}

#[test]
fn help_names_the_secret_variable_but_not_its_value() {
    let output = relay()
        .env("MOULIN_TURN_SECRET", "hush-hush-0451")
        .env("MOULIN_TURN_TTL", "2h")
        .arg("--help")
        .output()
        .unwrap();
    assert!(output.status.success());
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains("--turn-secret") && help.contains("[env: MOULIN_TURN_SECRET]"));
    assert!(help.contains("[env: MOULIN_TURN_TTL=2h]"), "{help}");
    assert!(!help.contains("hush-hush-0451"), "{help}");
}

/// Kills the relay if a test fails before stopping it.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the relay on a free port and returns it with the address it printed.
fn start(command: &mut Command) -> (Running, String) {
    let child = command
        .env("MOULIN_ADDR", "127.0.0.1:0")
        .env("MOULIN_STATIC_DIR", "/nonexistent/moulin-client")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut running = Running(child);
    let stdout = running.0.stdout.take().unwrap();
    let (line_tx, line_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = line_tx.send(line);
    });
    let line = line_rx.recv_timeout(LIMIT).expect("no listening line");
    let addr = line
        .trim()
        .strip_prefix("Relay listening on http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected line {line:?}"))
        .to_owned();
    (running, addr)
}

/// `--max-spectators` and `MOULIN_MAX_SPECTATORS` reach the relay, the flag winning: 0 refuses
/// every spectator (the cap itself is tested in `relay.rs`).
#[test]
fn max_spectators_comes_from_the_flag_or_the_environment() {
    let (running, addr) = start(relay().env("MOULIN_MAX_SPECTATORS", "0"));
    let reply = test_support::get_blocking(&addr, "/ws/room1?watch");
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (409, r#"{"error":"too_many_spectators"}"#)
    );
    let reply = test_support::get_blocking(&addr, "/ws/room1");
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (200, r#"{"peers":0}"#)
    );
    drop(running);

    let (running, addr) = start(
        relay()
            .env("MOULIN_MAX_SPECTATORS", "0")
            .args(["--max-spectators", "3"]),
    );
    let reply = test_support::get_blocking(&addr, "/ws/room1?watch");
    assert_eq!(
        (reply.status, reply.text().as_str()),
        (200, r#"{"peers":0}"#)
    );
    drop(running);
}

/// The whole path from the environment to `/ice-servers`. The clock here is the real one, so
/// only the shape is checked, and that the credential is HMAC-SHA1 of the user name under the
/// secret; the exact values are checked with a fixed clock in `relay.rs` and the unit tests.
#[test]
fn a_secret_from_the_environment_signs_the_served_turn_credentials() {
    let secret = "north";
    let (running, addr) = start(
        relay()
            .env("MOULIN_TURN_SECRET", secret)
            .env("MOULIN_TURN_TTL", "2m")
            .env(
                "MOULIN_ICE_SERVERS",
                "stun:turn.example.org:3478,turn:turn.example.org:3478?transport=udp",
            ),
    );

    let reply = test_support::get_blocking(&addr, "/ice-servers");
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let body = reply.text();
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        body["iceServers"][0],
        serde_json::json!({ "urls": ["stun:turn.example.org:3478"] })
    );
    let turn = &body["iceServers"][1];
    assert_eq!(
        turn["urls"],
        serde_json::json!(["turn:turn.example.org:3478?transport=udp"])
    );
    let username = turn["username"].as_str().unwrap();
    let (expiry, user) = username.split_once(':').unwrap();
    assert!(
        !expiry.is_empty() && expiry.bytes().all(|b| b.is_ascii_digit()),
        "{username}"
    );
    assert_eq!(user, "moulin");
    let mut mac = Hmac::<sha1::Sha1>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(username.as_bytes());
    let credential = turn["credential"].as_str().unwrap();
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(credential)
        .unwrap();
    mac.verify_slice(&decoded)
        .unwrap_or_else(|_| panic!("{credential} is not HMAC-SHA1({secret}, {username})"));
    drop(running);
}
