//! Pairing without a relay (« Sans serveur », issue #25): a WebRTC offer or answer as a short
//! text two people can pass by any means (a chat, a mail, a link, a QR code), and back.
//!
//! A browser's session description is about a kilobyte of SDP, nearly all of it the same for
//! every data channel. What the other side cannot rebuild is small: the ICE credentials, the DTLS
//! fingerprint, the DTLS role and the candidates (addresses and ports). [`Signal::from_sdp`] keeps
//! only that, once the browser has gathered its candidates (the page waits for the end of
//! gathering: no trickle without a relay); [`Signal::to_sdp`] writes back a description for one
//! data channel that the browser takes as the remote one. The text ([`Signal::encode`]) is a
//! version byte and those fields packed in binary, in URL-safe base64 without padding: about 100
//! characters for one IPv4 candidate.
//!
//! What is left out, and why it does not matter between two browsers:
//! - TCP candidates: a browser only offers *active* ones (it never listens), so two browsers can
//!   never connect to each other over them without a TURN relay, which pairing without a relay has
//!   not;
//! - the foundation, priority and generation of each candidate: rebuilt from its kind (RFC 8445
//!   §5.1.2's formula; the order of the candidates is kept), as a peer needs only to rank them;
//! - the related address of a reflexive or relayed candidate: browsers write `0.0.0.0 0` there
//!   already;
//! - candidates of the RTCP component (a data channel has none).
//!
//! An answer names the offer it answers ([`Signal::answers`], a 32-bit hash of the offer's
//! credentials and fingerprint), so that an answer to an older offer, or an offer pasted where the
//! answer goes, is told apart from the answer awaited. The application's own data (the
//! invitation: the game, the host's key, the room's secret) travels beside it, in
//! [`Signal::extra`], as bytes this module does not read.
//!
//! ```
//! use client_net::pairing::{Candidate, Kind, Signal};
//!
//! let sdp = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\n\
//!     m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\n\
//!     a=candidate:1 1 udp 2122260223 192.168.1.20 54321 typ host generation 0\r\n\
//!     a=ice-ufrag:Wx9q\r\na=ice-pwd:abcdefghijklmnopqrstuvwx\r\n\
//!     a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF\r\n\
//!     a=setup:actpass\r\na=mid:0\r\na=sctp-port:5000\r\n";
//! let offer = Signal::from_sdp(Kind::Offer, sdp).unwrap();
//! assert_eq!(offer.candidates.len(), 1);
//! let text = offer.encode();
//! assert_eq!(text.len(), 90);
//! assert_eq!(Signal::decode(&text).unwrap(), offer);
//! // The description written back carries the same credentials, fingerprint and candidate.
//! let back = Signal::from_sdp(Kind::Offer, &offer.to_sdp()).unwrap();
//! assert_eq!(back, offer);
//! ```

use std::fmt;

/// The version byte of the texts this module writes; a text of another version is refused
/// ([`PairingError::Version`]).
pub const VERSION: u8 = 1;

/// At most this many candidates are kept (the first ones, the browser's order): a host on many
/// networks would otherwise make a text too long to scan.
pub const MAX_CANDIDATES: usize = 8;

/// At most this many bytes of application data ([`Signal::extra`]).
pub const MAX_EXTRA: usize = 512;

/// The longest text [`Signal::decode`] reads; a longer one is refused before it is decoded.
pub const MAX_TEXT: usize = 2048;

/// An offer (the host's) or an answer (the guest's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The first text: from the side that makes the connection offer.
    Offer,
    /// The reply: from the side that received the offer.
    Answer,
}

/// The DTLS role a description declares (`a=setup`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setup {
    /// Either (an offer's).
    ActPass,
    /// The DTLS client (a browser's answer).
    Active,
    /// The DTLS server.
    Passive,
}

/// The hash of a DTLS certificate fingerprint (`a=fingerprint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hash {
    /// `sha-256`: 32 bytes (what Chromium and Firefox use).
    Sha256,
    /// `sha-384`: 48 bytes.
    Sha384,
    /// `sha-512`: 64 bytes.
    Sha512,
}

impl Hash {
    const ALL: [Hash; 3] = [Hash::Sha256, Hash::Sha384, Hash::Sha512];

    fn name(self) -> &'static str {
        match self {
            Hash::Sha256 => "sha-256",
            Hash::Sha384 => "sha-384",
            Hash::Sha512 => "sha-512",
        }
    }

    fn len(self) -> usize {
        match self {
            Hash::Sha256 => 32,
            Hash::Sha384 => 48,
            Hash::Sha512 => 64,
        }
    }
}

/// How a candidate was found (`typ`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CandidateType {
    /// An address of the machine itself.
    Host,
    /// The address a STUN server saw.
    Srflx,
    /// An address learnt from a peer's checks.
    Prflx,
    /// An address on a TURN relay.
    Relay,
}

impl CandidateType {
    const ALL: [CandidateType; 4] = [
        CandidateType::Host,
        CandidateType::Srflx,
        CandidateType::Prflx,
        CandidateType::Relay,
    ];

    fn name(self) -> &'static str {
        match self {
            CandidateType::Host => "host",
            CandidateType::Srflx => "srflx",
            CandidateType::Prflx => "prflx",
            CandidateType::Relay => "relay",
        }
    }

    /// RFC 8445 §5.1.2.2's recommended type preference.
    fn preference(self) -> u32 {
        match self {
            CandidateType::Host => 126,
            CandidateType::Prflx => 110,
            CandidateType::Srflx => 100,
            CandidateType::Relay => 0,
        }
    }
}

/// Where a candidate is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Address {
    /// An IPv4 address.
    V4([u8; 4]),
    /// An IPv6 address.
    V6([u8; 16]),
    /// An mDNS name `<uuid>.local`, as browsers write when they hide local addresses: the
    /// UUID's 16 bytes.
    Mdns([u8; 16]),
    /// Any other name (at most 255 bytes).
    Name(String),
}

impl Address {
    /// The address as a description writes it: IPv4 in decimal, IPv6 as RFC 5952 writes it
    /// (lower case, the longest run of zero groups as `::`), an mDNS name in lower case.
    /// Written by hand rather than with `std::net`'s parsers and formatters, which cost the
    /// page 4 KB of code for what browsers write here.
    pub fn text(&self) -> String {
        let mut out = String::new();
        match self {
            Address::V4(a) => {
                for (i, b) in a.iter().enumerate() {
                    if i > 0 {
                        out.push('.');
                    }
                    out.push_str(&b.to_string());
                }
            }
            Address::V6(a) => {
                let words: Vec<u16> = a
                    .chunks(2)
                    .map(|w| u16::from_be_bytes([w[0], w[1]]))
                    .collect();
                // The longest run of two zero groups or more (the first of equal ones).
                let (mut gap, mut gap_len, mut i) = (8, 1, 0);
                while i < 8 {
                    let start = i;
                    while i < 8 && words[i] == 0 {
                        i += 1;
                    }
                    if i - start > gap_len {
                        (gap, gap_len) = (start, i - start);
                    }
                    i += usize::from(i == start);
                }
                let mut i = 0;
                while i < 8 {
                    if i == gap {
                        out.push_str("::");
                        i += gap_len;
                        continue;
                    }
                    if i > 0 && i != gap + gap_len {
                        out.push(':');
                    }
                    push_hex(&mut out, words[i]);
                    i += 1;
                }
            }
            Address::Mdns(u) => {
                for (i, &b) in u.iter().enumerate() {
                    if matches!(i, 4 | 6 | 8 | 10) {
                        out.push('-');
                    }
                    push_hex_byte(&mut out, b);
                }
                out.push_str(".local");
            }
            Address::Name(n) => out.push_str(n),
        }
        out
    }

    fn parse(text: &str) -> Option<Address> {
        if let Some(a) = ipv4(text) {
            return Some(Address::V4(a));
        }
        if let Some(a) = ipv6(text) {
            return Some(Address::V6(a));
        }
        if let Some(u) = text.strip_suffix(".local").and_then(uuid) {
            return Some(Address::Mdns(u));
        }
        (!text.is_empty() && text.len() <= 255 && text.bytes().all(name_byte))
            .then(|| Address::Name(text.to_owned()))
    }
}

/// An IPv4 address written `a.b.c.d` in decimal, without leading zeros.
fn ipv4(text: &str) -> Option<[u8; 4]> {
    let mut out = [0; 4];
    let mut parts = text.split('.');
    for o in &mut out {
        let part = parts.next()?.as_bytes();
        if part.is_empty() || part.len() > 3 || (part.len() > 1 && part[0] == b'0') {
            return None;
        }
        let n = part.iter().try_fold(0u16, |n, &b| {
            b.is_ascii_digit().then(|| n * 10 + u16::from(b - b'0'))
        })?;
        *o = u8::try_from(n).ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// An IPv6 address in groups of one to four hexadecimal digits, `::` standing once for a run
/// of zero groups (neither an IPv4 tail nor a zone: browsers write neither in candidates).
fn ipv6(text: &str) -> Option<[u8; 16]> {
    fn groups(text: &str) -> Option<Vec<u16>> {
        if text.is_empty() {
            return Some(Vec::new());
        }
        text.split(':')
            .map(|g| {
                (1..=4).contains(&g.len()).then_some(())?;
                g.bytes()
                    .try_fold(0u16, |n, b| Some(n << 4 | u16::from(hex_digit(b)?)))
            })
            .collect()
    }
    let mut words = [0u16; 8];
    match text.as_bytes().windows(2).position(|w| w == b"::") {
        None => words.copy_from_slice(&groups(text).filter(|g| g.len() == 8)?),
        Some(at) => {
            let (head, tail) = (groups(&text[..at])?, groups(&text[at + 2..])?);
            if head.len() + tail.len() > 7 {
                return None;
            }
            words[..head.len()].copy_from_slice(&head);
            words[8 - tail.len()..].copy_from_slice(&tail);
        }
    }
    let mut out = [0; 16];
    for (o, w) in out.chunks_mut(2).zip(words) {
        o.copy_from_slice(&w.to_be_bytes());
    }
    Some(out)
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// A hexadecimal digit's value (either case).
fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// `n` in lower-case hexadecimal, without leading zeros.
fn push_hex(out: &mut String, n: u16) {
    let mut started = false;
    for shift in (0..4).rev() {
        let d = usize::from(n >> (4 * shift) & 15);
        started |= d != 0 || shift == 0;
        if started {
            out.push(char::from(HEX[d]));
        }
    }
}

/// A byte as two lower-case hexadecimal digits.
fn push_hex_byte(out: &mut String, b: u8) {
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 15)]));
}

/// The 16 bytes of a UUID written `8-4-4-4-12` in hexadecimal (lower case, as browsers write
/// them; the text written back is lower case too, so a name round-trips only in that form).
fn uuid(text: &str) -> Option<[u8; 16]> {
    let groups: Vec<&str> = text.split('-').collect();
    if groups.iter().map(|g| g.len()).ne([8, 4, 4, 4, 12]) {
        return None;
    }
    let hex: Vec<u8> = groups
        .concat()
        .bytes()
        .map(|b| hex_digit(b).filter(|_| !b.is_ascii_uppercase()))
        .collect::<Option<_>>()?;
    let mut out = [0; 16];
    for (o, pair) in out.iter_mut().zip(hex.chunks(2)) {
        *o = pair[0] << 4 | pair[1];
    }
    Some(out)
}

/// A byte that may appear in a host name written into SDP.
fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'.'
}

/// A UDP candidate of the data channel's one component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// How it was found.
    pub kind: CandidateType,
    /// Where.
    pub address: Address,
    /// Its UDP port.
    pub port: u16,
}

/// What one side must tell the other to open a data channel with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signal {
    /// Offer or answer.
    pub kind: Kind,
    /// The DTLS role declared.
    pub setup: Setup,
    /// The ICE username fragment (4 to 256 ICE characters).
    pub ufrag: String,
    /// The ICE password (22 to 256 ICE characters).
    pub pwd: String,
    /// The certificate fingerprint's hash.
    pub hash: Hash,
    /// The fingerprint's bytes.
    pub fingerprint: Vec<u8>,
    /// The candidates, in the browser's order (UDP, component 1, at most [`MAX_CANDIDATES`]).
    pub candidates: Vec<Candidate>,
    /// An answer: the [`Signal::tag`] of the offer it answers; an offer: 0.
    pub answers: u32,
    /// The application's data, carried as it is (at most [`MAX_EXTRA`] bytes).
    pub extra: Vec<u8>,
}

/// Why a description or a text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// The text is empty, or has characters base64 does not have (cut, or not a pairing text).
    NotText,
    /// The text is longer than [`MAX_TEXT`].
    TooLong,
    /// The text was written by another version of the site.
    Version(u8),
    /// The text ends before its last field (cut when copied).
    Truncated,
    /// The text has bytes after its last field, or a field out of its range.
    Malformed,
    /// The description has no ICE credentials or no fingerprint.
    Incomplete,
    /// The description has no candidate this module can carry (no UDP candidate).
    NoCandidate,
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::NotText => f.write_str("not a pairing text"),
            PairingError::TooLong => write!(f, "longer than {MAX_TEXT} characters"),
            PairingError::Version(v) => write!(f, "written by another version ({v})"),
            PairingError::Truncated => f.write_str("cut short"),
            PairingError::Malformed => f.write_str("malformed"),
            PairingError::Incomplete => f.write_str("no ICE credentials or no fingerprint"),
            PairingError::NoCandidate => f.write_str("no UDP candidate"),
        }
    }
}

impl std::error::Error for PairingError {}

/// An ICE character (RFC 8445 §5.3: `ALPHA / DIGIT / "+" / "/"`).
fn ice_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
}

fn ice_text(text: &str, min: usize) -> bool {
    (min..=256).contains(&text.len()) && text.bytes().all(ice_char)
}

impl Signal {
    /// Reads what pairing needs from a browser's session description (`sdp`, with its
    /// candidates gathered): its credentials, fingerprint, DTLS role and UDP candidates of
    /// component 1. Everything else in it is left out (module doc).
    pub fn from_sdp(kind: Kind, sdp: &str) -> Result<Signal, PairingError> {
        let (mut ufrag, mut pwd, mut fingerprint) = (None, None, None);
        let mut setup = match kind {
            Kind::Offer => Setup::ActPass,
            Kind::Answer => Setup::Active,
        };
        let mut candidates = Vec::new();
        for line in sdp.lines().map(str::trim_end) {
            let Some(attr) = line.strip_prefix("a=") else {
                continue;
            };
            let (name, value) = attr.split_once(':').unwrap_or((attr, ""));
            match name {
                "ice-ufrag" if ice_text(value, 4) => ufrag = ufrag.or(Some(value)),
                "ice-pwd" if ice_text(value, 22) => pwd = pwd.or(Some(value)),
                "fingerprint" if fingerprint.is_none() => fingerprint = read_fingerprint(value),
                "setup" => {
                    setup = match value {
                        "actpass" => Setup::ActPass,
                        "active" => Setup::Active,
                        "passive" => Setup::Passive,
                        _ => setup,
                    }
                }
                "candidate" if candidates.len() < MAX_CANDIDATES => {
                    candidates.extend(read_candidate(value).filter(|c| !candidates.contains(c)))
                }
                _ => {}
            }
        }
        let (Some(ufrag), Some(pwd), Some((hash, fingerprint))) = (ufrag, pwd, fingerprint) else {
            return Err(PairingError::Incomplete);
        };
        if candidates.is_empty() {
            return Err(PairingError::NoCandidate);
        }
        Ok(Signal {
            kind,
            setup,
            ufrag: ufrag.to_owned(),
            pwd: pwd.to_owned(),
            hash,
            fingerprint,
            candidates,
            answers: 0,
            extra: Vec::new(),
        })
    }

    /// A description of one data channel with this side's credentials, fingerprint, role and
    /// candidates, for the other side's `setRemoteDescription` (with `type` offer or answer as
    /// [`Signal::kind`] says).
    pub fn to_sdp(&self) -> String {
        let setup = match self.setup {
            Setup::ActPass => "actpass",
            Setup::Active => "active",
            Setup::Passive => "passive",
        };
        let tag = self.tag().to_string();
        let mut sdp = String::with_capacity(600);
        for part in [
            "v=0\r\no=- ",
            &tag,
            " 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\n\
             a=msid-semantic: WMS\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n\
             c=IN IP4 0.0.0.0\r\n",
        ] {
            sdp.push_str(part);
        }
        for (i, c) in self.candidates.iter().enumerate() {
            // RFC 8445 §5.1.2.1, component 1; the local preference keeps the browser's order.
            let priority = (c.kind.preference() << 24) | ((65535 - i as u32) << 8) | 255;
            let related = match c.kind {
                CandidateType::Host => "",
                _ => " raddr 0.0.0.0 rport 0",
            };
            for part in [
                "a=candidate:",
                &(i + 1).to_string(),
                " 1 udp ",
                &priority.to_string(),
                " ",
                &c.address.text(),
                " ",
                &c.port.to_string(),
                " typ ",
                c.kind.name(),
                related,
                "\r\n",
            ] {
                sdp.push_str(part);
            }
        }
        let mut fingerprint = String::new();
        for (i, &b) in self.fingerprint.iter().enumerate() {
            if i > 0 {
                fingerprint.push(':');
            }
            push_hex_byte(&mut fingerprint, b);
        }
        fingerprint.make_ascii_uppercase();
        for part in [
            "a=end-of-candidates\r\na=ice-ufrag:",
            &self.ufrag,
            "\r\na=ice-pwd:",
            &self.pwd,
            "\r\na=fingerprint:",
            self.hash.name(),
            " ",
            &fingerprint,
            "\r\na=setup:",
            setup,
            "\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n",
        ] {
            sdp.push_str(part);
        }
        sdp
    }

    /// A 32-bit name of this side's credentials and fingerprint (FNV-1a): what an answer
    /// carries in [`Signal::answers`] to say which offer it answers. Not a security check — the
    /// DTLS fingerprint is —, only a way to tell a stale or misplaced text from the one awaited.
    pub fn tag(&self) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        let parts = [
            self.ufrag.as_bytes(),
            b"\n",
            self.pwd.as_bytes(),
            b"\n",
            &self.fingerprint,
        ];
        for b in parts.into_iter().flatten() {
            h = (h ^ u32::from(*b)).wrapping_mul(0x0100_0193);
        }
        h
    }

    /// The text: [`VERSION`], then the fields packed, in URL-safe base64 without padding (so
    /// it can stand in a URL's fragment as it is).
    pub fn encode(&self) -> String {
        let mut out = vec![VERSION];
        let setup = match self.setup {
            Setup::ActPass => 0,
            Setup::Active => 1,
            Setup::Passive => 2,
        };
        let hash = Hash::ALL.iter().position(|&h| h == self.hash).unwrap_or(0) as u8;
        out.push(u8::from(self.kind == Kind::Answer) | setup << 1 | hash << 3);
        for text in [&self.ufrag, &self.pwd] {
            out.push(text.len() as u8);
            out.extend(pack_ice(text));
        }
        out.extend_from_slice(&self.fingerprint);
        if self.kind == Kind::Answer {
            out.extend_from_slice(&self.answers.to_be_bytes());
        }
        out.push(self.candidates.len() as u8);
        for c in &self.candidates {
            let kind = CandidateType::ALL
                .iter()
                .position(|&k| k == c.kind)
                .unwrap_or(0) as u8;
            let (form, bytes): (u8, Vec<u8>) = match &c.address {
                Address::V4(a) => (0, a.to_vec()),
                Address::V6(a) => (1, a.to_vec()),
                Address::Mdns(u) => (2, u.to_vec()),
                Address::Name(n) => (3, [&[n.len() as u8][..], n.as_bytes()].concat()),
            };
            out.push(kind | form << 2);
            out.extend_from_slice(&bytes);
            out.extend_from_slice(&c.port.to_be_bytes());
        }
        out.extend_from_slice(&(self.extra.len() as u16).to_be_bytes());
        out.extend_from_slice(&self.extra);
        base64_encode(&out)
    }

    /// Reads a text [`Signal::encode`] wrote (spaces and line breaks around or inside it, as a
    /// chat or a mail may add them, are ignored). Every field is checked: a text cut short, of
    /// another version, with a field out of range or with bytes left over is refused, with the
    /// reason.
    pub fn decode(text: &str) -> Result<Signal, PairingError> {
        if text.len() > MAX_TEXT {
            return Err(PairingError::TooLong);
        }
        let compact: String = text.split_whitespace().collect();
        let (bytes, canonical) = base64_decode(&compact).ok_or(PairingError::NotText)?;
        let signal = Signal::read(&mut Reader(&bytes))?;
        // Read whole, but not as written: bits left over after the last byte.
        if !canonical {
            return Err(PairingError::Malformed);
        }
        Ok(signal)
    }

    /// The fields [`Signal::encode`] packed, in order, and nothing after them.
    fn read(r: &mut Reader<'_>) -> Result<Signal, PairingError> {
        match r.byte()? {
            VERSION => {}
            v => return Err(PairingError::Version(v)),
        }
        let flags = r.byte()?;
        if flags >> 5 != 0 {
            return Err(PairingError::Malformed);
        }
        let kind = if flags & 1 == 1 {
            Kind::Answer
        } else {
            Kind::Offer
        };
        let setup = [Setup::ActPass, Setup::Active, Setup::Passive]
            .get(usize::from(flags >> 1 & 3))
            .copied()
            .ok_or(PairingError::Malformed)?;
        let hash = *Hash::ALL
            .get(usize::from(flags >> 3 & 3))
            .ok_or(PairingError::Malformed)?;
        let ufrag = r.ice(4)?;
        let pwd = r.ice(22)?;
        let fingerprint = r.take(hash.len())?.to_vec();
        let answers = match kind {
            Kind::Answer => u32::from_be_bytes(r.array()?),
            Kind::Offer => 0,
        };
        let count = usize::from(r.byte()?);
        if count == 0 || count > MAX_CANDIDATES {
            return Err(PairingError::Malformed);
        }
        let candidates = (0..count)
            .map(|_| r.candidate())
            .collect::<Result<Vec<_>, _>>()?;
        let extra_len = usize::from(u16::from_be_bytes(r.array()?));
        if extra_len > MAX_EXTRA {
            return Err(PairingError::Malformed);
        }
        let extra = r.take(extra_len)?.to_vec();
        if !r.0.is_empty() {
            return Err(PairingError::Malformed);
        }
        Ok(Signal {
            kind,
            setup,
            ufrag,
            pwd,
            hash,
            fingerprint,
            candidates,
            answers,
            extra,
        })
    }
}

/// `sha-256 AB:CD:…` → the hash and the bytes.
fn read_fingerprint(value: &str) -> Option<(Hash, Vec<u8>)> {
    let (name, hex) = value.split_once(' ')?;
    let hash = *Hash::ALL
        .iter()
        .find(|h| h.name().eq_ignore_ascii_case(name))?;
    let bytes = hex
        .trim()
        .split(':')
        .map(|b| match b.as_bytes() {
            &[hi, lo] => Some(hex_digit(hi)? << 4 | hex_digit(lo)?),
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()?;
    (bytes.len() == hash.len()).then_some((hash, bytes))
}

/// One `a=candidate:` value, when it is a UDP candidate of component 1 this module can carry.
fn read_candidate(value: &str) -> Option<Candidate> {
    let f: Vec<&str> = value.split_ascii_whitespace().collect();
    if f.len() < 8 || f[1] != "1" || !f[2].eq_ignore_ascii_case("udp") || f[6] != "typ" {
        return None;
    }
    let kind = *CandidateType::ALL.iter().find(|k| k.name() == f[7])?;
    Some(Candidate {
        kind,
        address: Address::parse(f[4])?,
        port: f[5].parse().ok().filter(|&p| p != 0)?,
    })
}

/// Reads the packed fields in order; running out is [`PairingError::Truncated`].
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], PairingError> {
        if self.0.len() < n {
            return Err(PairingError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn byte(&mut self) -> Result<u8, PairingError> {
        Ok(self.take(1)?[0])
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], PairingError> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }

    /// An ICE text: its length in characters, then six bits a character.
    fn ice(&mut self, min: usize) -> Result<String, PairingError> {
        let n = usize::from(self.byte()?);
        let text = unpack_ice(self.take((6 * n).div_ceil(8))?, n).ok_or(PairingError::Malformed)?;
        ice_text(&text, min)
            .then_some(text)
            .ok_or(PairingError::Malformed)
    }

    fn candidate(&mut self) -> Result<Candidate, PairingError> {
        let flags = self.byte()?;
        let kind = CandidateType::ALL[usize::from(flags & 3)];
        let address = match flags >> 2 {
            0 => Address::V4(self.array()?),
            1 => Address::V6(self.array()?),
            2 => Address::Mdns(self.array()?),
            3 => {
                let n = usize::from(self.byte()?);
                let name =
                    std::str::from_utf8(self.take(n)?).map_err(|_| PairingError::Malformed)?;
                match Address::parse(name) {
                    Some(a @ Address::Name(_)) => a,
                    _ => return Err(PairingError::Malformed),
                }
            }
            _ => return Err(PairingError::Malformed),
        };
        let port = u16::from_be_bytes(self.array()?);
        if port == 0 {
            return Err(PairingError::Malformed);
        }
        Ok(Candidate {
            kind,
            address,
            port,
        })
    }
}

/// The 64 ICE characters, each as six bits (its place here).
const ICE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// An ICE text (checked by the caller) packed at six bits a character, the last byte's spare
/// bits zero.
fn pack_ice(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity((6 * text.len()).div_ceil(8));
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        acc = acc << 6 | ICE.iter().position(|&i| i == c).unwrap_or(0) as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    if bits > 0 {
        out.push((acc << (8 - bits)) as u8);
    }
    out
}

/// The `n` characters [`pack_ice`] packed into `bytes`; `None` when spare bits are not zero.
fn unpack_ice(bytes: &[u8], n: usize) -> Option<String> {
    let mut out = String::with_capacity(n);
    let (mut acc, mut bits) = (0u32, 0);
    for &b in bytes {
        acc = (acc << 8 | u32::from(b)) & 0xffff;
        bits += 8;
        while bits >= 6 && out.len() < n {
            bits -= 6;
            out.push(char::from(ICE[(acc >> bits & 63) as usize]));
        }
    }
    (acc & ((1 << bits) - 1) == 0).then_some(out)
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// URL-safe base64 (RFC 4648 §5), no padding.
fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().fold(0u32, |n, &b| n << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(char::from(BASE64[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    out
}

/// The bytes of a URL-safe base64 text, and whether it is the very text [`base64_encode`]
/// writes for them (`false`: a character that makes no whole byte, or bits left over in the
/// last one — a text cut short, most often); `None` for an empty text or any character base64
/// does not have.
fn base64_decode(text: &str) -> Option<(Vec<u8>, bool)> {
    if text.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut canonical = text.len() % 4 != 1;
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for &c in chunk {
            n = n << 6 | BASE64.iter().position(|&b| b == c)? as u32;
        }
        n <<= 6 * (4 - chunk.len());
        let len = chunk.len().saturating_sub(1);
        out.extend_from_slice(&n.to_be_bytes()[1..=len]);
        canonical &= n & ((1 << (8 * (3 - len))) - 1) == 0;
    }
    Some((out, canonical))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An offer as Chromium writes it once its candidates are gathered (a host candidate on
    /// IPv4, one on IPv6, one behind an mDNS name, a reflexive one, TCP ones it cannot use).
    const CHROMIUM_OFFER: &str = "v=0\r\n\
        o=- 4611731400430051336 2 IN IP4 127.0.0.1\r\n\
        s=-\r\n\
        t=0 0\r\n\
        a=group:BUNDLE 0\r\n\
        a=extmap-allow-mixed\r\n\
        a=msid-semantic: WMS\r\n\
        m=application 54321 UDP/DTLS/SCTP webrtc-datachannel\r\n\
        c=IN IP4 192.168.1.20\r\n\
        a=candidate:2999745851 1 udp 2122260223 192.168.1.20 54321 typ host generation 0 network-id 1 network-cost 10\r\n\
        a=candidate:1435463253 1 udp 2122197247 2a01:e0a:1:2::5 40412 typ host generation 0 network-id 2\r\n\
        a=candidate:3527145862 1 udp 2122129151 0f3a5c1e-9b2d-4e7f-8a6b-1c2d3e4f5a6b.local 60001 typ host generation 0 network-id 3\r\n\
        a=candidate:842163049 1 udp 1686052607 203.0.113.7 54321 typ srflx raddr 0.0.0.0 rport 0 generation 0 network-id 1\r\n\
        a=candidate:4233069003 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active generation 0 network-id 1\r\n\
        a=candidate:2999745851 2 udp 2122260222 192.168.1.20 54322 typ host generation 0\r\n\
        a=ice-ufrag:Wx9q\r\n\
        a=ice-pwd:8f+Jk2/LmNoPqRsTuVwXyZ01\r\n\
        a=ice-options:trickle\r\n\
        a=fingerprint:sha-256 9C:0E:51:2B:7A:44:DF:12:6B:88:01:3E:AA:5D:C4:90:17:FE:63:B2:08:7D:E1:4C:39:A6:55:0B:C8:2F:91:DE\r\n\
        a=setup:actpass\r\n\
        a=mid:0\r\n\
        a=sctp-port:5000\r\n\
        a=max-message-size:262144\r\n";

    /// An answer as Firefox writes it (no network-id, `a=end-of-candidates`, its own origin).
    const FIREFOX_ANSWER: &str = "v=0\r\n\
        o=mozilla...THIS_IS_SDPARTA-99.0 5082539124382343011 0 IN IP4 0.0.0.0\r\n\
        s=-\r\n\
        t=0 0\r\n\
        a=fingerprint:sha-256 1F:2E:3D:4C:5B:6A:79:88:97:A6:B5:C4:D3:E2:F1:00:0F:1E:2D:3C:4B:5A:69:78:87:96:A5:B4:C3:D2:E1:F0\r\n\
        a=group:BUNDLE 0\r\n\
        a=ice-options:trickle\r\n\
        a=msid-semantic:WMS *\r\n\
        m=application 50000 UDP/DTLS/SCTP webrtc-datachannel\r\n\
        c=IN IP4 192.168.1.30\r\n\
        a=candidate:0 1 UDP 2122252543 192.168.1.30 50000 typ host\r\n\
        a=candidate:1 1 TCP 2105524479 192.168.1.30 9 typ host tcptype active\r\n\
        a=sendrecv\r\n\
        a=end-of-candidates\r\n\
        a=ice-pwd:0123456789abcdef0123456789abcdef\r\n\
        a=ice-ufrag:1a2b3c4d\r\n\
        a=mid:0\r\n\
        a=setup:active\r\n\
        a=sctp-port:5000\r\n\
        a=max-message-size:1073741823\r\n";

    fn offer() -> Signal {
        Signal::from_sdp(Kind::Offer, CHROMIUM_OFFER).unwrap()
    }

    #[test]
    fn a_chromium_offer_keeps_its_udp_candidates_of_component_one_in_order() {
        let o = offer();
        assert_eq!(
            (o.ufrag.as_str(), o.pwd.as_str()),
            ("Wx9q", "8f+Jk2/LmNoPqRsTuVwXyZ01")
        );
        assert_eq!(
            (o.setup, o.hash, o.fingerprint.len()),
            (Setup::ActPass, Hash::Sha256, 32)
        );
        assert_eq!(o.fingerprint[..3], [0x9c, 0x0e, 0x51]);
        let seen: Vec<String> = o
            .candidates
            .iter()
            .map(|c| format!("{} {} {}", c.kind.name(), c.address.text(), c.port))
            .collect();
        assert_eq!(
            seen,
            [
                "host 192.168.1.20 54321",
                "host 2a01:e0a:1:2::5 40412",
                "host 0f3a5c1e-9b2d-4e7f-8a6b-1c2d3e4f5a6b.local 60001",
                "srflx 203.0.113.7 54321",
            ]
        );
    }

    #[test]
    fn offers_and_answers_round_trip_through_the_text_and_through_sdp() {
        let o = offer();
        let mut a = Signal::from_sdp(Kind::Answer, FIREFOX_ANSWER).unwrap();
        assert_eq!((a.setup, a.candidates.len()), (Setup::Active, 1));
        a.answers = o.tag();
        a.extra = b"g=morris".to_vec();
        for s in [&o, &a] {
            let text = s.encode();
            assert!(text.bytes().all(|b| BASE64.contains(&b)), "{text}");
            assert_eq!(&Signal::decode(&text).unwrap(), s);
            // What a chat adds around a text, or a mail's line breaks inside it.
            let wrapped = format!("  {}\n{} \n", &text[..20], &text[20..]);
            assert_eq!(&Signal::decode(&wrapped).unwrap(), s);
            // The description written back reads as the same signal.
            let mut back = Signal::from_sdp(s.kind, &s.to_sdp()).unwrap();
            (back.answers, back.extra) = (s.answers, s.extra.clone());
            assert_eq!(&back, s);
        }
        assert_eq!(Signal::decode(&a.encode()).unwrap().answers, o.tag());
    }

    #[test]
    fn the_texts_are_short() {
        // One IPv4 host candidate: what two browsers on one network with local addresses
        // shown write.
        let mut one = offer();
        one.candidates.truncate(1);
        assert_eq!(one.encode().len(), 90);
        // Four candidates, one of them public.
        assert_eq!(offer().encode().len(), 150);
        let mut mdns = offer();
        mdns.candidates
            .retain(|c| matches!(c.address, Address::Mdns(_)));
        assert_eq!(mdns.encode().len(), 106);
    }

    #[test]
    fn the_rebuilt_description_ranks_candidates_in_the_browsers_order() {
        let sdp = offer().to_sdp();
        let priorities: Vec<u32> = sdp
            .lines()
            .filter_map(|l| l.strip_prefix("a=candidate:"))
            .map(|l| l.split(' ').nth(3).unwrap().parse().unwrap())
            .collect();
        assert_eq!(priorities.len(), 4);
        assert!(
            priorities[..3].windows(2).all(|w| w[0] > w[1]),
            "{priorities:?}"
        );
        // A reflexive candidate ranks under every host one, as RFC 8445 says.
        assert!(priorities[3] < priorities[2]);
        assert!(sdp.contains("typ srflx raddr 0.0.0.0 rport 0\r\n"));
        assert!(sdp.contains("a=setup:actpass\r\n") && sdp.contains("a=sctp-port:5000\r\n"));
    }

    #[test]
    fn a_description_without_what_pairing_needs_is_refused() {
        let without = |attr: &str| -> String {
            CHROMIUM_OFFER
                .lines()
                .filter(|l| !l.starts_with(attr))
                .map(|l| format!("{l}\r\n"))
                .collect()
        };
        for attr in ["a=ice-ufrag", "a=ice-pwd", "a=fingerprint"] {
            assert_eq!(
                Signal::from_sdp(Kind::Offer, &without(attr)),
                Err(PairingError::Incomplete),
                "{attr}"
            );
        }
        // Only TCP candidates, or none gathered yet.
        let tcp_only: String = without("a=candidate").replace(
            "a=ice-ufrag",
            "a=candidate:1 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active\r\na=ice-ufrag",
        );
        assert_eq!(
            Signal::from_sdp(Kind::Offer, &tcp_only),
            Err(PairingError::NoCandidate)
        );
        assert_eq!(
            Signal::from_sdp(Kind::Offer, &without("a=candidate")),
            Err(PairingError::NoCandidate)
        );
        // A fingerprint of the wrong length, a short password.
        let bad = CHROMIUM_OFFER.replace(":91:DE\r\n", ":91\r\n");
        assert_eq!(
            Signal::from_sdp(Kind::Offer, &bad),
            Err(PairingError::Incomplete)
        );
        let bad = CHROMIUM_OFFER.replace("a=ice-pwd:8f+Jk2/", "a=ice-pwd:");
        assert_eq!(
            Signal::from_sdp(Kind::Offer, &bad),
            Err(PairingError::Incomplete)
        );
    }

    #[test]
    fn bad_texts_are_refused_with_their_reason() {
        let text = offer().encode();
        assert_eq!(Signal::decode(""), Err(PairingError::NotText));
        assert_eq!(Signal::decode("héllo"), Err(PairingError::NotText));
        assert_eq!(
            Signal::decode("https://example.org/moulin/salon"),
            Err(PairingError::NotText)
        );
        assert_eq!(
            Signal::decode(&"A".repeat(MAX_TEXT + 1)),
            Err(PairingError::TooLong)
        );
        // Every cut of a text is refused (never read as a shorter signal).
        for n in 1..text.len() {
            assert!(Signal::decode(&text[..n]).is_err(), "cut at {n}");
        }
        // Cut anywhere in its fields, it says so.
        for n in [10, 60, text.len() - 4, text.len() - 1] {
            assert_eq!(
                Signal::decode(&text[..n]),
                Err(PairingError::Truncated),
                "cut at {n}"
            );
        }
        // Another version.
        let mut bytes = base64_decode(&text).unwrap().0;
        bytes[0] = 2;
        assert_eq!(
            Signal::decode(&base64_encode(&bytes)),
            Err(PairingError::Version(2))
        );
        // Bytes left over, a candidate count of zero or over the maximum, a port 0.
        let mut longer = base64_decode(&text).unwrap().0;
        longer.push(0);
        assert_eq!(
            Signal::decode(&base64_encode(&longer)),
            Err(PairingError::Malformed)
        );
        let count_at = 2 + 1 + 3 + 1 + 18 + 32; // flags, ufrag (4 ICE characters), pwd (24)
        for count in [0, MAX_CANDIDATES as u8 + 1] {
            let mut b = base64_decode(&text).unwrap().0;
            b[count_at] = count;
            assert_eq!(
                Signal::decode(&base64_encode(&b)),
                Err(PairingError::Malformed)
            );
        }
        let mut b = base64_decode(&text).unwrap().0;
        // The first candidate's port: after the count, its flags and its four bytes.
        b[count_at + 6..count_at + 8].copy_from_slice(&[0, 0]);
        assert_eq!(
            Signal::decode(&base64_encode(&b)),
            Err(PairingError::Malformed)
        );
    }

    #[test]
    fn any_bytes_decode_or_are_refused_without_a_panic() {
        // A small deterministic generator: every length up to 200, bytes of every value.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for len in 0..200 {
            for _ in 0..20 {
                let bytes: Vec<u8> = (0..len)
                    .map(|i| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        if i == 0 {
                            VERSION
                        } else {
                            x as u8
                        }
                    })
                    .collect();
                if let Ok(s) = Signal::decode(&base64_encode(&bytes)) {
                    // What decodes encodes back to the same bytes: one text per signal.
                    assert_eq!(base64_decode(&s.encode()).unwrap(), (bytes.clone(), true));
                }
            }
        }
    }

    #[test]
    fn addresses_read_and_write_as_browsers_do() {
        // Written back as read (IPv6 as RFC 5952 writes it, which is how browsers write it).
        for text in [
            "192.168.1.20",
            "0.0.0.0",
            "255.255.255.255",
            "2a01:e0a:1:2::5",
            "fe80::1",
            "::",
            "::1",
            "1::",
            "1:0:2::3",
            "2001:db8:0:1:1:1:1:1",
            "2001:db8::1:0:0:1",
            "0f3a5c1e-9b2d-4e7f-8a6b-1c2d3e4f5a6b.local",
            "my-host.lan",
        ] {
            let a = Address::parse(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(a.text(), text);
        }
        // Other spellings of the same addresses: read, and written the one way.
        for (text, written) in [
            ("2A01:0E0A:0001:0002:0000:0000:0000:0005", "2a01:e0a:1:2::5"),
            ("1:0:0:0:0:0:0:0", "1::"),
            ("0:0:0:0:0:0:0:1", "::1"),
            ("1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"),
        ] {
            assert_eq!(Address::parse(text).unwrap().text(), written, "{text}");
        }
        assert_eq!(Address::parse("10.0.0.7"), Some(Address::V4([10, 0, 0, 7])));
        // Not addresses: leading zeros, out of range, too many or too few groups, two gaps,
        // a zone, an IPv4 tail, an upper-case mDNS name; neither are they names.
        for text in [
            "192.168.01.20",
            "256.1.1.1",
            "1.2.3",
            "1.2.3.4.5",
            "1.2.3.",
            "1::2::3",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7",
            "12345::1",
            ":1::2",
            "1:::2",
            "fe80::1%eth0",
            "::ffff:1.2.3.4",
            "g::1",
            "",
        ] {
            assert!(
                !matches!(Address::parse(text), Some(Address::V4(_) | Address::V6(_))),
                "{text}"
            );
            assert!(
                !matches!(Address::parse(text), Some(Address::Name(n)) if n.contains(':')),
                "{text}"
            );
        }
        assert_eq!(
            Address::parse("0F3A5C1E-9B2D-4E7F-8A6B-1C2D3E4F5A6B.local"),
            Some(Address::Name(
                "0F3A5C1E-9B2D-4E7F-8A6B-1C2D3E4F5A6B.local".into()
            ))
        );
    }

    #[test]
    fn base64_is_rfc_4648s_url_safe_alphabet_without_padding() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"f", "Zg"),
            (b"fo", "Zm8"),
            (b"foo", "Zm9v"),
            (b"\xfb\xff", "-_8"),
        ] {
            assert_eq!(base64_encode(bytes), text);
            if !bytes.is_empty() {
                assert_eq!(base64_decode(text).unwrap(), (bytes.to_vec(), true));
            }
        }
        // Bits left over in the last character: not a text this module writes.
        assert_eq!(base64_decode("Zh"), Some((b"f".to_vec(), false)));
        assert_eq!(base64_decode("Zm9vZ"), Some((b"foo".to_vec(), false)));
        assert_eq!(base64_decode("Zm9v="), None);
        assert_eq!(base64_decode(""), None);
    }
}
