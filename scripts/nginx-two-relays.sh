#!/usr/bin/env bash
# Two relays behind Debian's nginx on loopback, as docs/self-hosting.md describes: nginx sends
# every request for /ws/ROOM to one relay chosen by `hash $request_uri consistent`, so both
# players of a room meet on the same relay. Starts its own nginx (temporary config and prefix,
# unprivileged port; the system's nginx service is not touched), connects pairs of websocket
# clients to several rooms through it, and checks that each pair got each other's NewPeer, that
# both peers of a room landed on the same relay, and that the rooms were spread over both.
#
#   scripts/nginx-two-relays.sh            # uses $RELAY_BIN or builds the release relay
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

command -v nginx >/dev/null || die "nginx is not installed (scripts/test.sh installs it)"
NGINX=$(command -v nginx)
if [ -z "${RELAY_BIN:-}" ]; then
    cargo build --release -q -p signaling
    RELAY_BIN="$CARGO_TARGET_DIR/release/signaling"
fi
NODE=$(command -v node) || die "node is needed for the websocket clients"

WORK=$(mktemp -d /tmp/nginx-two-relays.XXXXXX)
chmod 755 "$WORK" # nginx workers run as another user when started by root
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# A relay on a free port; sets RELAY_ADDR once it is listening. Not to be run in $(…): the
# relay's pid must reach PIDS in this shell, or cleanup leaves the relay running.
start_relay() {
    local name=$1 log="$WORK/$1.log"
    RELAY_ADDR=""
    "$RELAY_BIN" --addr 127.0.0.1:0 --static-dir "$WORK/no-client" --trusted-proxy 127.0.0.1 \
        >"$log.out" 2>"$log" &
    PIDS+=($!)
    for _ in $(seq 100); do
        RELAY_ADDR=$(sed -n 's|^Relay listening on http://\(.*\)/$|\1|p' "$log.out")
        [ -n "$RELAY_ADDR" ] && break
        sleep 0.05
    done
    [ -n "$RELAY_ADDR" ] || die "relay $name did not start: $(cat "$log")"
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

start_relay a
RELAY_A=$RELAY_ADDR
start_relay b
RELAY_B=$RELAY_ADDR
PORT=$(free_port)
step "Relays on $RELAY_A and $RELAY_B; nginx on 127.0.0.1:$PORT"

mkdir -p "$WORK/nginx/logs"
cat >"$WORK/nginx/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;

    map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }

    upstream relays {
        # Both players of a room ask for the same /ws/ROOM: same hash, same relay.
        hash \$request_uri consistent;
        server $RELAY_A;
        server $RELAY_B;
    }

    server {
        listen 127.0.0.1:$PORT;
        location /ws/ {
            proxy_pass http://relays;
            proxy_http_version 1.1;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Host \$host:\$server_port;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_read_timeout 60s;
            proxy_send_timeout 60s;
        }
        location / {
            proxy_pass http://relays;
            proxy_set_header Host \$host:\$server_port;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
        }
    }
}
EOF
"$NGINX" -t -q -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' 2>"$WORK/nginx-t.log" \
    || die "nginx rejected the config: $(cat "$WORK/nginx-t.log")"
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' &
PIDS+=($!)
for _ in $(seq 100); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 0.2)" 2>/dev/null && break
    sleep 0.05
done

step "Pairs of peers meeting through nginx"
cat >"$WORK/pairs.mjs" <<'EOF'
// For each room: host joins, guest joins, the host must get {"NewPeer": guest}. Then each
// relay's /health says where the room went. Keeps every socket open until the end.
const [proxy, relayA, relayB] = process.argv.slice(2);
const relays = { A: relayA, B: relayB };
const health = async (addr) => (await fetch(`http://${addr}/health`)).json();
const open = (room) => new Promise((resolve, reject) => {
  const ws = new WebSocket(`ws://${proxy}/ws/${room}`);
  const events = [];
  let wake = null;
  ws.onmessage = (m) => { events.push(JSON.parse(m.data)); const w = wake; wake = null; if (w) w(); };
  ws.onerror = () => reject(new Error(`websocket to room ${room} failed`));
  ws.onopen = () => resolve({
    ws,
    next: () => new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no event in room ${room}`)), 5000);
      const poll = () => { if (events.length) { clearTimeout(timer); res(events.shift()); } else wake = poll; };
      poll();
    }),
  });
});
const placed = { A: [], B: [] };
const sockets = [];
for (let i = 0; i < 12 && (placed.A.length < 2 || placed.B.length < 2); i++) {
  const room = `room-${i}`;
  const before = { A: await health(relays.A), B: await health(relays.B) };
  const host = await open(room);
  const hostId = (await host.next()).IdAssigned;
  const guest = await open(room);
  const guestId = (await guest.next()).IdAssigned;
  const event = await host.next();
  if (event.NewPeer !== guestId) throw new Error(`${room}: host got ${JSON.stringify(event)}`);
  sockets.push(host.ws, guest.ws);
  const after = { A: await health(relays.A), B: await health(relays.B) };
  const on = Object.keys(relays).filter((k) => after[k].peers - before[k].peers === 2);
  const moved = Object.keys(relays).filter((k) => after[k].peers !== before[k].peers);
  if (on.length !== 1 || moved.length !== 1) {
    throw new Error(`${room}: peers split across relays ${JSON.stringify({ before, after })}`);
  }
  placed[on[0]].push(room);
  console.log(`${room}: host ${hostId.slice(0, 8)} got NewPeer ${guestId.slice(0, 8)}, both on relay ${on[0]}`);
}
for (const ws of sockets) ws.close();
if (!placed.A.length || !placed.B.length) throw new Error(`all rooms on one relay: ${JSON.stringify(placed)}`);
console.log(`relay A held ${placed.A.join(", ")}; relay B held ${placed.B.join(", ")}`);
EOF
"$NODE" --experimental-websocket --no-warnings "$WORK/pairs.mjs" "127.0.0.1:$PORT" "$RELAY_A" "$RELAY_B"
echo "OK: every pair met on one relay, and the rooms were spread over both."
