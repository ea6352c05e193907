//! Entry point of the WebAssembly client: mounts the app.

fn main() {
    client::ui::start();
}
