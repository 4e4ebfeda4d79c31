//! A static file server for one folder on 127.0.0.1, for games that run in a
//! browser: the page, its scripts and its WebAssembly must come over HTTP (a
//! `.wasm` file with MIME type `application/wasm`), not from `file://`.
//!
//! [`StaticServer::start`] binds the port itself (port 0 = a free one picked
//! by the system; a given port that is taken is a clear error), answers on a
//! background thread through `tiny_http`, and stops when dropped. Only files
//! inside the folder are served: `..` segments, absolute paths and symbolic
//! links that lead outside are refused with 403. Content types come from the
//! file extension (`mime_guess`).

use std::io::ErrorKind;
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use tiny_http::{Header, Request, Response, Server, StatusCode};

/// Errors from starting a [`StaticServer`].
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The folder to serve does not exist or is not a folder.
    #[error("cannot serve {}: {reason}", path.display())]
    Folder {
        /// The folder given.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The port is taken by another program.
    #[error("port {port} on 127.0.0.1 is already in use by another program; choose another port, or port 0 to let the system pick a free one")]
    PortInUse {
        /// The port asked for.
        port: u16,
    },
    /// Binding the socket failed for another reason.
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind {
        /// The port asked for.
        port: u16,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// The HTTP server could not be set up on the socket.
    #[error("cannot start the HTTP server on 127.0.0.1:{port}: {reason}")]
    Server {
        /// The port.
        port: u16,
        /// What tiny_http said.
        reason: String,
    },
}

/// One request the server answered, for diagnostics (which files a page
/// asked for, which were missing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// The request path as sent (without the query string).
    pub path: String,
    /// The HTTP status code of the answer.
    pub status: u16,
}

/// A static file server for one folder on 127.0.0.1; stops when dropped.
pub struct StaticServer {
    root: PathBuf,
    addr: SocketAddr,
    server: Arc<Server>,
    stop: Arc<AtomicBool>,
    log: Arc<Mutex<Vec<Served>>>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for StaticServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StaticServer")
            .field("root", &self.root)
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

/// At most this many requests are kept in the log.
const LOG_LIMIT: usize = 1000;

impl StaticServer {
    /// Serves `folder` on `127.0.0.1:port` (0 = any free port) from a
    /// background thread.
    pub fn start(folder: &Path, port: u16) -> Result<StaticServer, ServeError> {
        let root = folder.canonicalize().map_err(|e| ServeError::Folder {
            path: folder.to_path_buf(),
            reason: e.to_string(),
        })?;
        if !root.is_dir() {
            return Err(ServeError::Folder {
                path: folder.to_path_buf(),
                reason: "not a folder".into(),
            });
        }
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(|e| {
            if e.kind() == ErrorKind::AddrInUse {
                ServeError::PortInUse { port }
            } else {
                ServeError::Bind { port, source: e }
            }
        })?;
        let addr = listener
            .local_addr()
            .map_err(|e| ServeError::Bind { port, source: e })?;
        let server = Server::from_listener(listener, None).map_err(|e| ServeError::Server {
            port: addr.port(),
            reason: e.to_string(),
        })?;
        let server = Arc::new(server);
        let stop = Arc::new(AtomicBool::new(false));
        let log = Arc::new(Mutex::new(Vec::new()));
        let thread = {
            let (server, stop, log, root) = (
                Arc::clone(&server),
                Arc::clone(&stop),
                Arc::clone(&log),
                root.clone(),
            );
            thread::Builder::new()
                .name(format!("serve:{}", addr.port()))
                .spawn(move || serve_loop(&server, &root, &stop, &log))
                .map_err(|e| ServeError::Server {
                    port: addr.port(),
                    reason: format!("cannot start its thread: {e}"),
                })?
        };
        log::info!("serving {} on http://{addr}/", root.display());
        Ok(StaticServer {
            root,
            addr,
            server,
            stop,
            log,
            thread: Some(thread),
        })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The folder served (canonical path).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The URL of `path` (relative to the folder, `/` separated, may carry a
    /// `#fragment` or `?query`), e.g. `http://127.0.0.1:41234/flood.html#ID`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{}", self.addr, path.trim_start_matches('/'))
    }

    /// The requests answered so far, oldest first (at most the last 1000).
    pub fn served(&self) -> Vec<Served> {
        self.log.lock().map(|l| l.clone()).unwrap_or_default()
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve_loop(server: &Server, root: &Path, stop: &AtomicBool, log: &Mutex<Vec<Served>>) {
    while !stop.load(Ordering::SeqCst) {
        // A timeout as well as `unblock`, so a stop is never missed.
        let request = match server.recv_timeout(Duration::from_millis(200)) {
            Ok(Some(request)) => request,
            Ok(None) => continue,
            Err(e) => {
                log::debug!("HTTP server stops: {e}");
                break;
            }
        };
        let path = request
            .url()
            .split(['?', '#'])
            .next()
            .unwrap_or("")
            .to_string();
        let status = respond(request, root, &path);
        log::debug!("GET {path} -> {status}");
        if let Ok(mut log) = log.lock() {
            if log.len() >= LOG_LIMIT {
                log.remove(0);
            }
            log.push(Served { path, status });
        }
    }
}

/// Answers one request; returns the status code sent.
fn respond(request: Request, root: &Path, url_path: &str) -> u16 {
    let method = request.method().as_str().to_ascii_uppercase();
    if method != "GET" && method != "HEAD" {
        return send_text(request, 405, "only GET and HEAD are served");
    }
    let file = match resolve(root, url_path) {
        Ok(file) => file,
        Err(status) => {
            let text = if status == 403 {
                "outside the served folder"
            } else {
                "not found"
            };
            return send_text(request, status, text);
        }
    };
    match std::fs::File::open(&file) {
        Ok(f) => {
            let mime = mime_guess::from_path(&file).first_or_octet_stream();
            let mut response = Response::from_file(f);
            if let Ok(header) = Header::from_bytes("Content-Type", mime.essence_str()) {
                response.add_header(header);
            }
            if let Ok(header) = Header::from_bytes("Cache-Control", "no-store") {
                response.add_header(header);
            }
            let _ = request.respond(response);
            200
        }
        Err(_) => send_text(request, 404, "not found"),
    }
}

fn send_text(request: Request, status: u16, text: &str) -> u16 {
    let response = Response::from_string(text).with_status_code(StatusCode(status));
    let _ = request.respond(response);
    status
}

/// The file under `root` that `url_path` names (`index.html` for a folder),
/// or the HTTP status to answer: 403 for anything that would leave `root`,
/// 404 for what does not exist.
fn resolve(root: &Path, url_path: &str) -> Result<PathBuf, u16> {
    let decoded = percent_decode(url_path).ok_or(404u16)?;
    let mut path = root.to_path_buf();
    for part in decoded.split('/') {
        if part.is_empty() || part == "." {
            continue;
        }
        // A single normal component only: no "..", no drive or root, no
        // backslash tricks.
        let mut components = Path::new(part).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(c)), None) if !part.contains('\\') => path.push(c),
            _ => return Err(403),
        }
    }
    if path.is_dir() {
        path.push("index.html");
    }
    // Symbolic links may point anywhere: the real path must stay inside.
    let real = path.canonicalize().map_err(|_| 404u16)?;
    if !real.starts_with(root) {
        return Err(403);
    }
    if real.is_file() {
        Ok(real)
    } else {
        Err(404)
    }
}

/// Decodes `%XX` escapes; `None` for a malformed escape, a NUL byte or
/// invalid UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    if out.contains(&0) {
        return None;
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpStream;

    /// A GET over a raw socket: (status code, content type, body).
    fn get(port: u16, path: &str) -> (u16, String, Vec<u8>) {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&raw[..split]).into_owned();
        let body = raw[split + 4..].to_vec();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        let content_type = head
            .lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("content-type")
                    .then(|| v.trim().to_string())
            })
            .unwrap_or_default();
        (status, content_type, body)
    }

    fn site() -> (tempfile::TempDir, tempfile::TempDir) {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path();
        std::fs::write(p.join("game.html"), "<html>hi</html>").unwrap();
        std::fs::write(p.join("game.js"), "let x = 1;").unwrap();
        std::fs::write(p.join("game.wasm"), b"\0asm\x01\0\0\0").unwrap();
        std::fs::write(p.join("style.css"), "body{}").unwrap();
        std::fs::write(p.join("a b.png"), b"\x89PNG").unwrap();
        std::fs::create_dir(p.join("sub")).unwrap();
        std::fs::write(p.join("sub/index.html"), "sub index").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), p.join("link.txt")).unwrap();
        (dir, outside)
    }

    #[test]
    fn serves_files_with_their_mime_types() {
        let (dir, _outside) = site();
        let server = StaticServer::start(dir.path(), 0).unwrap();
        let port = server.port();
        assert_ne!(port, 0);
        let cases = [
            ("/game.html", "text/html"),
            ("/game.js", "text/javascript"),
            ("/game.wasm", "application/wasm"),
            ("/style.css", "text/css"),
            ("/a%20b.png", "image/png"),
        ];
        for (path, mime) in cases {
            let (status, content_type, _) = get(port, path);
            assert_eq!((status, content_type.as_str()), (200, mime), "{path}");
        }
        let (status, _, body) = get(port, "/game.wasm");
        assert_eq!((status, body.as_slice()), (200, &b"\0asm\x01\0\0\0"[..]));
        let (_, _, body) = get(port, "/sub/?x=1");
        assert_eq!(body, b"sub index");
        assert_eq!(
            server.url("game.html#1x1:0,1"),
            format!("http://127.0.0.1:{port}/game.html#1x1:0,1")
        );
        let served = server.served();
        assert_eq!(
            served[0],
            Served {
                path: "/game.html".into(),
                status: 200
            }
        );
    }

    #[test]
    fn refuses_paths_outside_the_folder() {
        let (dir, _outside) = site();
        let server = StaticServer::start(dir.path(), 0).unwrap();
        let port = server.port();
        for path in [
            "/../secret.txt",
            "/sub/../../secret.txt",
            "/%2e%2e/secret.txt",
            "/sub/%2E%2E%2F%2E%2E%2Fsecret.txt",
            "/link.txt",
        ] {
            let (status, _, body) = get(port, path);
            assert!(status == 403 || status == 404, "{path}: {status}");
            assert_ne!(body, b"secret", "{path}");
        }
        assert_eq!(get(port, "/nothing.html").0, 404);
        assert_eq!(get(port, "/bad%zz").0, 404);
    }

    #[test]
    fn resolve_maps_paths_into_the_folder() {
        let (dir, _outside) = site();
        let root = dir.path().canonicalize().unwrap();
        assert_eq!(resolve(&root, "/game.js"), Ok(root.join("game.js")));
        assert_eq!(resolve(&root, "//./game.js"), Ok(root.join("game.js")));
        assert_eq!(resolve(&root, "/sub"), Ok(root.join("sub/index.html")));
        assert_eq!(resolve(&root, "/.."), Err(403));
        assert_eq!(resolve(&root, "/link.txt"), Err(403));
        assert_eq!(resolve(&root, "/"), Err(404));
    }

    #[test]
    fn a_port_in_use_is_a_clear_error() {
        let (dir, _outside) = site();
        let first = StaticServer::start(dir.path(), 0).unwrap();
        let err = StaticServer::start(dir.path(), first.port()).unwrap_err();
        assert!(matches!(err, ServeError::PortInUse { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.contains(&first.port().to_string()) && text.contains("already in use"),
            "{text}"
        );
    }

    #[test]
    fn a_missing_folder_is_a_clear_error() {
        let err = StaticServer::start(Path::new("/nonexistent/gridbot-site"), 0).unwrap_err();
        assert!(
            err.to_string().contains("/nonexistent/gridbot-site"),
            "{err}"
        );
    }

    #[test]
    fn stops_when_dropped() {
        let (dir, _outside) = site();
        let server = StaticServer::start(dir.path(), 0).unwrap();
        let port = server.port();
        drop(server);
        // The port is free again once tiny_http's accept thread has seen
        // the stop and closed the listener (it does so right after the
        // drop, on its own thread).
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let again = loop {
            match StaticServer::start(dir.path(), port) {
                Ok(again) => break again,
                Err(ServeError::PortInUse { .. }) if std::time::Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(10))
                }
                Err(e) => panic!("port {port} not freed: {e}"),
            }
        };
        assert_eq!(again.port(), port);
    }
}
