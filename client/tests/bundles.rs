//! The page's loader (`client/static/index.html`) picks the bundle by path: its lists of the
//! rooms' and the spectators' paths must be exactly the client's routes of those bundles, or a
//! page would load a bundle that cannot show it.

use client::ui::{Bundle, Route};
use engine::GameKind;

const ROUTES: [Route; 14] = [
    Route::Home,
    Route::Morris,
    Route::Meta,
    Route::Computer(GameKind::Morris),
    Route::Computer(GameKind::Meta),
    Route::Lobby(GameKind::Morris),
    Route::Lobby(GameKind::Meta),
    Route::Room(GameKind::Morris),
    Route::Room(GameKind::Meta),
    Route::Paired(GameKind::Morris),
    Route::Paired(GameKind::Meta),
    Route::Watch(GameKind::Morris),
    Route::Watch(GameKind::Meta),
    Route::Viewer,
];

/// The paths index.html sends to a bundle: its array literal `const <NAME> = [...]`.
fn loader_paths(name: &str) -> Vec<String> {
    let html = include_str!("../static/index.html");
    let prefix = format!("const {name} = ");
    let line = html
        .lines()
        .find_map(|l| l.trim().strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("index.html declares {name}"));
    let list = line.trim_end_matches(';').trim();
    let inner = list
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .expect("an array literal");
    inner
        .split(',')
        .map(|p| p.trim().trim_matches('"').to_string())
        .collect()
}

#[test]
fn the_loader_sends_exactly_each_bundles_routes_to_it() {
    for (name, bundle) in [
        ("REMOTE_PATHS", Bundle::Remote),
        ("PAIRED_PATHS", Bundle::Paired),
        ("WATCH_PATHS", Bundle::Watch),
    ] {
        let mut ours: Vec<&str> = ROUTES
            .iter()
            .filter(|r| r.bundle() == bundle)
            .map(|r| r.path())
            .collect();
        let mut loader = loader_paths(name);
        ours.sort_unstable();
        loader.sort_unstable();
        assert_eq!(loader, ours, "{name}");
        for path in &loader {
            // The loader trims trailing slashes as the router does.
            for p in [path.clone(), format!("{path}/")] {
                assert_eq!(Route::from_path(&p).bundle(), bundle, "{p}");
            }
        }
        for route in ROUTES.iter().filter(|r| r.bundle() != bundle) {
            assert!(!loader.iter().any(|p| p == route.path()), "{route:?}");
        }
    }
}
