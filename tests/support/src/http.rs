//! A bare HTTP/1.1 client: one request per connection (`Connection: close`), the answer read to
//! its end, a chunked body put back together. Enough to see exactly what the relay sends, headers
//! included, with nothing between.

use std::{io, net::SocketAddr};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    time::timeout,
};

use crate::LIMIT;

/// An answer: its status, headers as sent, and body (de-chunked, still compressed if it was).
#[derive(Debug)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The headers, in order, names as sent.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// A header's value (the name compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as text; panics if it is not UTF-8.
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("a body in UTF-8")
    }
}

/// `GET path` with extra `headers`; panics if the server does not answer within [`LIMIT`].
pub async fn get(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Reply {
    request(addr, "GET", path, headers).await
}

/// Any method; panics if the server does not answer within [`LIMIT`].
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> Reply {
    timeout(LIMIT, try_request(addr, method, path, headers))
        .await
        .expect("HTTP request timed out")
        .expect("HTTP request failed")
}

/// `GET path`, or why there is no answer (a relay that is down).
pub async fn try_get(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> io::Result<Reply> {
    try_request(addr, "GET", path, headers).await
}

async fn try_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
) -> io::Result<Reply> {
    let mut stream = TcpStream::connect(addr).await?;
    stream
        .write_all(head(&addr.to_string(), method, path, headers).as_bytes())
        .await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    parse_reply(&raw)
}

/// `GET path` without an async runtime (`host` is `ADDR:PORT`); panics if the server does not
/// answer within [`LIMIT`].
pub fn get_blocking(host: &str, path: &str) -> Reply {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(host).expect("connect");
    stream
        .set_read_timeout(Some(LIMIT))
        .expect("set a read timeout");
    stream
        .write_all(head(host, "GET", path, &[]).as_bytes())
        .expect("send the request");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read the answer");
    parse_reply(&raw).expect("an HTTP answer")
}

fn head(host: &str, method: &str, path: &str, headers: &[(&str, &str)]) -> String {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    head
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_owned())
}

fn parse_reply(raw: &[u8]) -> io::Result<Reply> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of headers"))?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| bad("headers not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|status| status.parse().ok())
        .ok_or_else(|| bad("no status"))?;
    let headers = lines
        .map(|line| {
            let (name, value) = line.split_once(':').ok_or_else(|| bad("bad header"))?;
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        })
        .collect::<io::Result<Vec<_>>>()?;
    let mut reply = Reply {
        status,
        headers,
        body: raw[end + 4..].to_vec(),
    };
    if reply.header("transfer-encoding") == Some("chunked") {
        reply.body = dechunk(&reply.body).ok_or_else(|| bad("bad chunked body"))?;
    }
    Ok(reply)
}

fn dechunk(mut chunked: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = chunked.windows(2).position(|w| w == b"\r\n")?;
        let size_field = std::str::from_utf8(&chunked[..line_end]).ok()?;
        let size = usize::from_str_radix(size_field.split(';').next()?.trim(), 16).ok()?;
        chunked = &chunked[line_end + 2..];
        if size == 0 {
            return Some(body);
        }
        body.extend_from_slice(chunked.get(..size)?);
        chunked = chunked.get(size + 2..)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chunked_answer_is_put_back_together() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: b\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n";
        let reply = parse_reply(raw).unwrap();
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("x-a"), Some("b"));
        assert_eq!(reply.text(), "abcde");
    }

    #[test]
    fn a_broken_answer_is_an_error() {
        for raw in [
            &b"HTTP/1.1 200 OK\r\n"[..],
            b"HTTP/1.1 OK\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nabc",
        ] {
            assert!(parse_reply(raw).is_err(), "{raw:?}");
        }
    }
}
