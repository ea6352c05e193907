//! Short-lived TURN credentials made from a secret the relay shares with the TURN server: coturn's
//! « TURN REST API » (`use-auth-secret` with `static-auth-secret=SECRET`).
//!
//! coturn's `README.turnserver` (section "TURN REST API") and its sample `turnserver.conf`
//! (`use-auth-secret`) define the scheme: the user name is `timestamp:userid`, the password is
//! `base64(HMAC-SHA1(shared secret, user name))`, and coturn accepts the pair while the timestamp
//! (seconds since 1970) is not in the past (`get_user_key` in `src/apps/relay/userdb.c`): the
//! timestamp is the expiry. Anyone may read such a credential, as every visitor's browser does;
//! it stops opening allocations once it expires, and the secret itself never leaves the servers.

use std::{
    fmt,
    sync::Arc,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use base64::Engine as _;
use hmac::{Hmac, Mac};
use relay_api::{IceServer, IceServers};
use sha1::Sha1;

/// The secret shared with the TURN server (coturn's `static-auth-secret`). Its `Debug` does not
/// show it, so a logged [`crate::Config`] keeps it.
#[derive(Clone, PartialEq, Eq)]
pub struct TurnSecret(String);

impl TurnSecret {
    /// What follows the expiry in every user name. coturn counts `user-quota` per this part, so
    /// every visitor of the relay shares one quota: limit with `total-quota` instead.
    pub const USER: &'static str = "moulin";

    /// The secret as configured on the TURN server.
    pub fn new(secret: impl Into<String>) -> Self {
        Self(secret.into())
    }

    /// The user name and credential that the TURN server accepts until `expires` (counted in
    /// whole seconds since 1970, rounded down): `"<expiry>:moulin"` and
    /// `base64(HMAC-SHA1(secret, user name))`.
    pub fn credentials(&self, expires: SystemTime) -> (String, String) {
        let expiry = expires
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        let username = format!("{expiry}:{}", Self::USER);
        let credential = hmac_sha1_base64(self.0.as_bytes(), username.as_bytes());
        (username, credential)
    }
}

impl fmt::Debug for TurnSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TurnSecret(…)")
    }
}

/// `base64(HMAC-SHA1(key, message))`, standard alphabet with padding, as coturn writes it.
fn hmac_sha1_base64(key: &[u8], message: &[u8]) -> String {
    let mut mac = Hmac::<Sha1>::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(message);
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// Where the relay reads the time of day; only the expiry of TURN credentials needs it. The
/// system clock by default; tests set their own.
#[derive(Clone)]
pub struct Clock(Arc<dyn Fn() -> SystemTime + Send + Sync>);

impl Clock {
    /// The system's clock.
    pub fn system() -> Self {
        Self(Arc::new(SystemTime::now))
    }

    /// A clock that reads `now`.
    pub fn new(now: impl Fn() -> SystemTime + Send + Sync + 'static) -> Self {
        Self(Arc::new(now))
    }

    /// The time now.
    pub fn now(&self) -> SystemTime {
        (self.0)()
    }
}

impl Default for Clock {
    fn default() -> Self {
        Self::system()
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Clock")
    }
}

/// The body of `GET /ice-servers`: as configured when the credentials are static, or made anew on
/// each request when they come from a [`TurnSecret`].
#[derive(Clone, Debug)]
pub(crate) enum IceList {
    Fixed(Arc<IceServers>),
    Fresh {
        servers: Arc<[IceServer]>,
        secret: TurnSecret,
        ttl: Duration,
        clock: Clock,
    },
}

impl IceList {
    pub(crate) fn new(config: &crate::Config) -> Self {
        match &config.turn_secret {
            None => Self::Fixed(Arc::new(IceServers {
                ice_servers: config.ice_servers.clone(),
            })),
            Some(secret) => Self::Fresh {
                servers: config.ice_servers.clone().into(),
                secret: secret.clone(),
                ttl: config.turn_ttl,
                clock: config.clock.clone(),
            },
        }
    }

    /// The list now: with a secret, every entry holding a `turn:` or `turns:` URL gets a user
    /// name and credential that expire `ttl` from now, in place of any it had.
    pub(crate) fn now(&self) -> IceServers {
        match self {
            Self::Fixed(list) => IceServers::clone(list),
            Self::Fresh {
                servers,
                secret,
                ttl,
                clock,
            } => {
                let (username, credential) = secret.credentials(clock.now() + *ttl);
                let servers: Vec<IceServer> = servers
                    .iter()
                    .map(|server| {
                        if server.urls.iter().any(|url| IceServer::is_turn_url(url)) {
                            IceServer {
                                urls: server.urls.clone(),
                                username: Some(username.clone()),
                                credential: Some(credential.clone()),
                            }
                        } else {
                            server.clone()
                        }
                    })
                    .collect();
                IceServers {
                    ice_servers: servers,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64, millis: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(millis)
    }

    /// Expected values computed apart from this code, with Python's standard library:
    /// `base64.b64encode(hmac.new(b"north", b"1700003600:moulin", hashlib.sha1).digest())`,
    /// and checked with `printf %s 1700003600:moulin | openssl dgst -sha1 -hmac north -binary |
    /// base64`. (`north` is the secret of coturn's sample `turnserver.conf`.)
    #[test]
    fn credentials_match_an_independently_computed_vector() {
        let secret = TurnSecret::new("north");
        // 2023-11-14T22:13:20.900Z plus an hour: the expiry is rounded down to the second.
        let expires = at(1_700_000_000, 900) + Duration::from_secs(3600);
        assert_eq!(
            secret.credentials(expires),
            (
                "1700003600:moulin".to_owned(),
                "fYkSQcr68KRsNJhqdA3fWaPkaew=".to_owned()
            )
        );
        assert_eq!(
            secret.credentials(at(1_700_007_200, 0)),
            (
                "1700007200:moulin".to_owned(),
                "8LbbgIvRNj5Ku2V/K4iXbjUXNrc=".to_owned()
            )
        );
        // Another secret, another credential for the same kind of user name.
        assert_eq!(
            TurnSecret::new("logen").credentials(at(1_700_000_060, 0)).1,
            "l59eAavSHqUKdX+URriNUSi2WG4="
        );
    }

    /// RFC 2202, test case 2 (HMAC-SHA1, key "Jefe"): the digest is
    /// effcdf6ae5eb2fa2d27416d5f184df9c259a7c79, here in base64.
    #[test]
    fn hmac_sha1_matches_rfc_2202() {
        assert_eq!(
            hmac_sha1_base64(b"Jefe", b"what do ya want for nothing?"),
            "7/zfauXrL6LSdBbV8YTfnCWafHk="
        );
    }

    #[test]
    fn only_turn_entries_get_fresh_credentials_and_the_secret_is_never_shown() {
        let mut config = crate::Config {
            ice_servers: IceServer::from_urls(
                &["stun:a".to_owned(), "turns:b".to_owned()],
                Some("static".to_owned()),
                Some("static".to_owned()),
            ),
            turn_secret: Some(TurnSecret::new("north")),
            turn_ttl: Duration::from_secs(3600),
            clock: Clock::new(|| at(1_700_000_000, 0)),
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&IceList::new(&config).now()).unwrap(),
            r#"{"iceServers":[{"urls":["stun:a"]},{"urls":["turns:b"],"username":"1700003600:moulin","credential":"fYkSQcr68KRsNJhqdA3fWaPkaew="}]}"#
        );
        assert!(!format!("{config:?}").contains("north"));

        config.turn_secret = None;
        assert_eq!(
            serde_json::to_string(&IceList::new(&config).now()).unwrap(),
            r#"{"iceServers":[{"urls":["stun:a"]},{"urls":["turns:b"],"username":"static","credential":"static"}]}"#
        );
    }
}
