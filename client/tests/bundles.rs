//! The page's loader (`client/static/index.html`) picks the bundle by path: its list of the remote
//! pages' paths must be exactly the client's remote routes, or a page would load a bundle that
//! cannot show it.

use client::ui::Route;
use engine::GameKind;

const ROUTES: [Route; 10] = [
    Route::Home,
    Route::Morris,
    Route::Meta,
    Route::Computer(GameKind::Morris),
    Route::Computer(GameKind::Meta),
    Route::Lobby(GameKind::Morris),
    Route::Lobby(GameKind::Meta),
    Route::Room(GameKind::Morris),
    Route::Room(GameKind::Meta),
    Route::Viewer,
];

fn loader_remote_paths() -> Vec<String> {
    let html = include_str!("../static/index.html");
    let line = html
        .lines()
        .find_map(|l| l.trim().strip_prefix("const REMOTE_PATHS = "))
        .expect("index.html declares REMOTE_PATHS");
    let list = line.trim_end_matches(';').trim();
    let inner = list
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .expect("REMOTE_PATHS is an array literal");
    inner
        .split(',')
        .map(|p| p.trim().trim_matches('"').to_string())
        .collect()
}

#[test]
fn the_loader_sends_exactly_the_remote_routes_to_the_remote_bundle() {
    let mut ours: Vec<&str> = ROUTES
        .iter()
        .filter(|r| r.remote())
        .map(|r| r.path())
        .collect();
    let mut loader = loader_remote_paths();
    ours.sort_unstable();
    loader.sort_unstable();
    assert_eq!(loader, ours);
    for path in &loader {
        // The loader trims trailing slashes as the router does.
        for p in [path.clone(), format!("{path}/")] {
            assert!(Route::from_path(&p).remote(), "{p}");
        }
    }
    for route in ROUTES.iter().filter(|r| !r.remote()) {
        assert!(!loader.iter().any(|p| p == route.path()), "{route:?}");
    }
}
