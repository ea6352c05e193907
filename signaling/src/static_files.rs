//! The built web client: files from one directory, compressed, with cache headers, and
//! `index.html` for the client's own routes. `index.html` and the service worker `/sw.js` are
//! revalidated on every use (`no-cache`), hashed names are cached for a year, the rest an hour.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use axum::{
    body::Body,
    extract::{Request, State},
    http::{header, HeaderValue, Method, StatusCode},
    middleware,
    response::{IntoResponse, Response},
    Router,
};
use tower::ServiceExt;
use tower_http::{
    compression::{CompressionLayer, CompressionLevel},
    services::{ServeDir, ServeFile},
};

/// Responses are compressed on the fly at this level (gzip 0–9, brotli 0–11). Brotli's own
/// default, 11, takes seconds on a wasm file of a few MB; 5 is near gzip's speed and still
/// smaller. A build that ships `.br` / `.gz` files next to the originals is served those instead.
const COMPRESSION_LEVEL: i32 = 5;

const NO_CACHE: HeaderValue = HeaderValue::from_static("no-cache");
const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");
const SHORT: HeaderValue = HeaderValue::from_static("public, max-age=3600");

/// The client's service worker (`client/static/sw.js`): like `index.html`, never taken from a
/// cache without asking, so that a deployment reaches the browsers at their next visit.
const SERVICE_WORKER: &str = "/sw.js";

/// A content hash in a file name is a run of at least this many hex digits.
const MIN_HASH_DIGITS: usize = 16;

struct StaticFiles {
    dir: PathBuf,
    index: PathBuf,
    files: ServeDir,
}

/// The fallback service of the app: every path that is not `/health` or `/ws/{room}`.
pub(crate) fn router(dir: &Path) -> Router {
    let files = StaticFiles {
        dir: dir.to_owned(),
        index: dir.join("index.html"),
        files: ServeDir::new(dir).precompressed_br().precompressed_gzip(),
    };
    Router::new()
        .fallback(serve)
        .with_state(Arc::new(files))
        .layer(CompressionLayer::new().quality(CompressionLevel::Precise(COMPRESSION_LEVEL)))
        .layer(middleware::map_response(weaken_etag_when_encoded))
}

/// `ServeDir`'s strong ETag names the bytes of the file; once compressed the bytes differ, so
/// the tag must become weak (RFC 9110 §8.8.1) — as nginx does. Revalidation still works: `ServeDir`
/// compares `If-None-Match` weakly.
async fn weaken_etag_when_encoded(mut response: Response) -> Response {
    if !response.headers().contains_key(header::CONTENT_ENCODING) {
        return response;
    }
    if let Some(etag) = response.headers().get(header::ETAG) {
        if !etag.as_bytes().starts_with(b"W/") {
            let weak = [b"W/", etag.as_bytes()].concat();
            if let Ok(weak) = HeaderValue::from_bytes(&weak) {
                response.headers_mut().insert(header::ETAG, weak);
            }
        }
    }
    response
}

async fn serve(State(files): State<Arc<StaticFiles>>, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    if is_reserved(&path) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let (parts, body) = request.into_parts();
    let spa_route = matches!(parts.method, Method::GET | Method::HEAD) && !has_extension(&path);

    let mut response = match files
        .files
        .clone()
        .oneshot(Request::from_parts(parts.clone(), body))
        .await
    {
        Ok(response) => response.map(Body::new),
        Err(never) => match never {},
    };
    if response.status() == StatusCode::NOT_FOUND {
        if !tokio::fs::metadata(&files.dir)
            .await
            .is_ok_and(|meta| meta.is_dir())
        {
            return not_built();
        }
        if spa_route {
            response = match ServeFile::new(&files.index)
                .precompressed_br()
                .precompressed_gzip()
                .oneshot(Request::from_parts(parts, Body::empty()))
                .await
            {
                Ok(response) => response.map(Body::new),
                Err(never) => match never {},
            };
            if response.status() == StatusCode::NOT_FOUND {
                return not_built();
            }
        }
    }

    let status = response.status();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        let is_html = !has_extension(&path)
            || path.ends_with(".html")
            || response
                .headers()
                .get(header::CONTENT_TYPE)
                .is_some_and(|ct| ct.as_bytes().starts_with(b"text/html"));
        let policy = if is_html || path == SERVICE_WORKER {
            NO_CACHE
        } else if is_hashed(file_name(&path)) {
            IMMUTABLE
        } else {
            SHORT
        };
        response.headers_mut().insert(header::CACHE_CONTROL, policy);
    }
    response
}

fn not_built() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::CACHE_CONTROL, NO_CACHE)],
        "The web client is not built: build it into the relay's static directory, then reload.\n",
    )
        .into_response()
}

/// Paths owned by the relay itself: never a file, never the client's `index.html`.
pub(crate) fn is_reserved(path: &str) -> bool {
    ["/ws", "/health", "/ice-servers"].iter().any(|prefix| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// Whether the last segment of a URL path has a file extension (`/a/b.js`, not `/a.b/c`).
pub(crate) fn has_extension(path: &str) -> bool {
    file_name(path)
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && !ext.is_empty())
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Whether a file name carries a content hash, as in `client-0123456789abcdef_bg.wasm`: a run of
/// at least [`MIN_HASH_DIGITS`] hex digits between `-`, `_` or `.` separators.
fn is_hashed(name: &str) -> bool {
    name.split(['-', '_', '.'])
        .any(|part| part.len() >= MIN_HASH_DIGITS && part.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_names() {
        assert!(is_hashed("client-0123456789abcdef.js"));
        assert!(is_hashed("client-0123456789abcdef_bg.wasm"));
        assert!(is_hashed("style.0123456789ABCDEF.css"));
        assert!(!is_hashed("client.js"));
        assert!(
            !is_hashed("client-0123456789abcde.js"),
            "15 digits is not a hash"
        );
        assert!(!is_hashed("client-0123456789abcdeg.js"));
        assert!(!is_hashed("index.html"));
    }

    #[test]
    fn extensions() {
        assert!(has_extension("/client-0123456789abcdef_bg.wasm"));
        assert!(has_extension("/assets/logo.svg"));
        assert!(!has_extension("/"));
        assert!(!has_extension("/moulin"));
        assert!(!has_extension("/moulin/salon/abc"));
        assert!(
            !has_extension("/v1.2/moulin"),
            "a dot in a directory does not count"
        );
        assert!(
            !has_extension("/.well-known"),
            "a dot file has no extension"
        );
        assert!(!has_extension("/trailing."));
    }

    #[test]
    fn reserved_paths() {
        for path in ["/ws", "/ws/", "/ws/room", "/ws/a/b", "/health", "/health/x"] {
            assert!(is_reserved(path), "{path}");
        }
        for path in ["/", "/wsx", "/healthy", "/moulin", "/moulin/ws"] {
            assert!(!is_reserved(path), "{path}");
        }
    }
}
