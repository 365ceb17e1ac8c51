//! Credentials: API keys and tokens with well-known prefixes (`sk-`, `ghp_`, `AKIA…`, Slack,
//! Google, GitLab, Stripe, JWTs, PEM private keys), `Bearer`/`Basic` authorization values,
//! `password=…`-style assignments in several languages, a password told after its word in
//! twenty-odd more ("het wachtwoord is …", "密码 …"), and whole values of fields named
//! password, secret, token or API key.

use crate::classify::pattern::LazyRegex as Regex;

use super::context::{Keywords, LastKey, by_key, char_at, char_before, regex_gated};
use crate::classify::pattern::{Edge, words, words_ci};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Field names saying the value is a secret.
const SECRET_FIELDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "secret",
    "token",
    "api_key",
    "apikey",
    "api-key",
    "access_key",
    "private_key",
    "client_secret",
    "credential",
    "passwort",
    "mot_de_passe",
    "contraseña",
    "contrasena",
];

/// Field names saying the value is a secret only as a whole word of the name (`auth`,
/// `auth_header`, `pin_code`): `author`, `pinned` and `otpauth_uri`'s neighbours are not.
const SECRET_FIELD_WORDS: &[&str] = &["auth", "pin", "otp"];

/// Words that follow "password:" in prose or forms rather than a secret.
const PROSE: &[&str] = &[
    "required",
    "optional",
    "reset",
    "forgotten",
    "forgot",
    "changed",
    "expired",
    "incorrect",
    "invalid",
    "missing",
    "protected",
    "hidden",
    "none",
    "null",
    "empty",
    "unknown",
    "redacted",
    "string",
    "example",
    "placeholder",
    "the",
    "your",
    "not",
    "set",
    "unset",
    "same",
];

/// Finds credentials.
#[derive(Debug)]
pub(super) struct Credential {
    prefixed: Regex,
    scheme: Regex,
    assignment: Regex,
    short: Regex,
    labelled: Regex,
    told: Regex,
    login: Regex,
    fields: Keywords,
    field_words: Keywords,
}

/// "Password" in more languages (Dutch, Portuguese, Polish, Czech and Slovak, the Nordic
/// languages, Finnish, Turkish, Romanian, Hungarian, Catalan, Russian, Ukrainian and
/// Bulgarian, Greek, Japanese, Chinese, Korean, Vietnamese, Indonesian, Hebrew, Arabic and
/// Hindi), as the value that follows it is told in prose ("het wachtwoord is …", "密码 …").
/// Cyrillic and Greek words are listed in both cases: the gate folds ASCII only.
const PASSWORD_WORDS: &[&str] = &[
    "wachtwoord",
    "senha",
    "hasło",
    "haslo",
    "heslo",
    "lösenord",
    "losenord",
    "passord",
    "adgangskode",
    "kodeord",
    "salasana",
    "şifre",
    "sifre",
    "parola",
    "jelszó",
    "jelszo",
    "contrasenya",
    "пароль",
    "Пароль",
    "пароля",
    "парола",
    "Парола",
    "κωδικός",
    "Κωδικός",
    "パスワード",
    "暗証番号",
    "密码",
    "密碼",
    "口令",
    "비밀번호",
    "암호",
    "mật khẩu",
    "kata sandi",
    "סיסמה",
    "סיסמא",
    "كلمة المرور",
    "كلمة السر",
    "पासवर्ड",
];

/// "Password" in the languages whose copula may come after words naming whose or which
/// password it is ("das Passwort für das WLAN lautet …"), besides [`PASSWORD_WORDS`] ("het
/// wachtwoord van mijn account is …").
const TOLD_WORDS: &[&str] = &[
    "password",
    "passwort",
    "kennwort",
    "mot de passe",
    "contraseña",
    "contrasena",
];

/// The copulas and verbs of telling that come before a password's value in those languages.
const COPULAS: &[&str] = &[
    "is", "was", "ist", "lautet", "war", "est", "était", "es", "era", "è", "é", "e", "je", "jest",
    "to", "är", "var", "er", "lyder", "on", "olla", "zijn", "luidt",
];

/// Words for log-in details, before a user name and password joined by a colon.
const LOGIN_WORDS: &[&str] = &[
    "login",
    "log-in",
    "logon",
    "credentials",
    "creds",
    "zugangsdaten",
    "anmeldedaten",
    "identifiants",
    "credenciales",
    "inloggegevens",
    "dane logowania",
    "přihlašovací údaje",
    "inloggning",
    "innlogging",
    "login-oplysninger",
];

impl Credential {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Credential {
            // Each pattern behind its prefixes, schemes or names.
            prefixed: regex_gated(
                "credential",
                r"(?:sk-(?:proj-|ant-)?[A-Za-z0-9_\-]{20,}|(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}|(?:AKIA|ASIA)[0-9A-Z]{16}|xox[abposr]-[A-Za-z0-9\-]{10,}|AIza[0-9A-Za-z_\-]{35}|glpat-[A-Za-z0-9_\-]{20,}|hf_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$))",
                words(
                    &[
                        "sk-",
                        "_live_",
                        "_test_",
                        "ghp_",
                        "gho_",
                        "ghu_",
                        "ghs_",
                        "ghr_",
                        "github_pat_",
                        "AKIA",
                        "ASIA",
                        "xox",
                        "AIza",
                        "glpat-",
                        "hf_",
                        "eyJ",
                        "-----BEGIN ",
                    ],
                    Edge::Any,
                    Edge::Any,
                ),
            )?,
            scheme: regex_gated(
                "credential",
                r"(?-u:\b)(?:Bearer|Basic|Token)\s+([A-Za-z0-9._~+/\-]{12,}=*)",
                words(&["Bearer", "Basic", "Token"], Edge::Boundary, Edge::Space),
            )?,
            assignment: regex_gated(
                "credential",
                r#"(?i)(?-u:\b)(?:password|passwd|pwd|passcode|passphrase|pin|secret|api[_\-\s]?key|apikey|access[_\-\s]?token|auth[_\-\s]?token|token|client[_\-\s]?secret|private[_\-\s]?key|mot de passe|passwort|kennwort|contraseña|clave|parola d'ordine)["']?\s*(?:is|est|ist|es|è|:|=|=>)\s*["']?([^\s"',;<>]{4,})"#,
                words_ci(
                    &[
                        "password",
                        "passwd",
                        "pwd",
                        "passcode",
                        "passphrase",
                        "pin",
                        "secret",
                        "api",
                        "access",
                        "auth",
                        "token",
                        "client",
                        "private",
                        "mot de passe",
                        "passwort",
                        "kennwort",
                        "contraseña",
                        "clave",
                        "parola d'ordine",
                    ],
                    Edge::Boundary,
                    Edge::Any,
                ),
            )?,
            // "pw Summer2026!": the short forms need no connector, but a value with a letter
            // and a digit or a sign (checked on the match).
            short: regex_gated(
                "credential",
                r#"(?i)(?-u:\b)(?:pw|pwd)\s*(?::|=|is)?\s+([^\s"',;<>]{6,})"#,
                words_ci(&["pw", "pwd"], Edge::Boundary, Edge::Any),
            )?,
            // "het wachtwoord is Zonne!2024", "şifrem Kedi!2015", "密码 Abc@12345": the word
            // (with a short ending), at most two short words ("is", "er", "là"), then a value
            // that mixes letters with digits or signs (checked on the match).
            labelled: regex_gated(
                "credential",
                &format!(
                    r#"(?i)(?:{})\w{{0,3}}[\s:：=]*(?:[^\s\d"',;<>，。、]{{1,6}}\s+){{0,2}}?([^\s"',;<>，。、]{{6,}})"#,
                    PASSWORD_WORDS.join("|")
                ),
                words_ci(PASSWORD_WORDS, Edge::Any, Edge::Any),
            )?,
            // "het wachtwoord van mijn account is Tulp!2026", "Passwort lautet …": the word,
            // up to four words naming whose or which, then a copula, then a value that mixes
            // letters with digits or signs (checked on the match).
            told: {
                let told: Vec<&str> = TOLD_WORDS.iter().chain(PASSWORD_WORDS).copied().collect();
                regex_gated(
                    "credential",
                    &format!(
                        r#"(?i)(?:{})\w{{0,3}}(?:\s+[^\s\d"',;<>，。、]{{1,10}}){{0,4}}?\s+(?:{})\s*[:"']?\s*([^\s"',;<>，。、]{{6,}})"#,
                        told.join("|"),
                        COPULAS.join("|")
                    ),
                    words_ci(&told, Edge::Any, Edge::Any),
                )?
            },
            // "my login is ana.k:Hunter!42" (often percent-encoded, read in its decoded
            // view): a user name and a password joined by a colon, after a word for log-in
            // details.
            login: regex_gated(
                "credential",
                &format!(
                    r#"(?i)(?-u:\b)(?:{})\s*(?:is|are|sind|ist|sont|est|son|es|zijn|to|je|är|er|:|=)?\s*["']?([^\s"',;<>:]{{2,}}:[^\s"',;<>]{{4,}})"#,
                    LOGIN_WORDS.join("|")
                ),
                words_ci(LOGIN_WORDS, Edge::Boundary, Edge::Any),
            )?,
            fields: Keywords::new("credential", SECRET_FIELDS)?,
            field_words: Keywords::new("credential", SECRET_FIELD_WORDS)?,
        })
    }
}

impl crate::classify::shared::Gate for Credential {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        text.len() >= 4
    }
}

impl Detector for Credential {
    fn name(&self) -> &'static str {
        "credential"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if text.len() < 4 {
            return;
        }
        thread_local! {
            static LAST: LastKey<bool> = const { LastKey::new((String::new(), None)) };
        }
        if field.key.is_some_and(|k| {
            by_key(&LAST, k, |k| {
                self.fields.any_in(k) || self.field_words.any_word_in(k)
            })
        }) {
            let t = text.trim();
            if t.len() >= 4 && !t.contains(char::is_whitespace) && !placeholder(t) {
                let start = text.len() - text.trim_start().len();
                out.push(Finding::new(
                    start..start + t.len(),
                    PsdKind::Credential,
                    0.9,
                    "credential",
                ));
                return;
            }
        }
        for m in self.prefixed.find_iter(text) {
            if char_before(text, m.start()).is_some_and(|c| c.is_ascii_alphanumeric())
                || char_at(text, m.end()).is_some_and(|c| c.is_ascii_alphanumeric())
                || masked(m.as_str())
            {
                continue;
            }
            out.push(Finding::new(
                m.range(),
                PsdKind::Credential,
                0.95,
                "credential",
            ));
        }
        // (pattern, whether its value must mix letters with digits or signs)
        for (re, short) in [
            (&self.scheme, false),
            (&self.assignment, false),
            (&self.short, true),
            (&self.labelled, true),
            (&self.told, true),
            (&self.login, false),
        ] {
            for c in re.captures_iter(text) {
                // A word of the list inside a longer word ("parolaccia") names no password.
                if let Some(m) = c.get(0)
                    && char_before(text, m.start())
                        .is_some_and(|c| c.is_alphabetic() && c.is_ascii())
                {
                    continue;
                }
                if let Some(v) = c.get(1) {
                    let range = v.start()..v.start() + secret_len(v.as_str());
                    let s = text.get(range.clone()).unwrap_or_default();
                    // A name something is assigned to ("… sets expires_at = 2099-01-01") is
                    // no value.
                    let assigned = text
                        .get(range.end..)
                        .map(str::trim_start)
                        .is_some_and(|r| r.starts_with('=') && !r.starts_with("=="));
                    // "password: required" style prose is not a secret value.
                    if s.len() < 4
                        || assigned
                        || PROSE.iter().any(|w| w.eq_ignore_ascii_case(s))
                        || placeholder(s)
                        || short && !mixed(s)
                        || out.iter().any(|f| f.span == range)
                    {
                        continue;
                    }
                    out.push(Finding::new(range, PsdKind::Credential, 0.85, "credential"));
                }
            }
        }
    }
}

/// The length of the secret that opens `value`: all of it, but for a query string's next
/// parameter (`pw=x&user=y` ends at `&`) and a closing full stop or bracket.
fn secret_len(value: &str) -> usize {
    let b = value.as_bytes();
    let mut end = value.len();
    for (i, &c) in b.iter().enumerate() {
        if c == b'&' {
            let rest = b.get(i + 1..).unwrap_or_default();
            let key = rest
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            if key > 0 && rest.get(key) == Some(&b'=') {
                end = i;
                break;
            }
        }
    }
    let v = value.get(..end).unwrap_or(value);
    v.trim_end_matches(['.', ')', ']', '}']).len()
}

/// Words that make a value a stand-in for a secret, not one, as a whole part of it:
/// `YOUR_API_KEY_HERE`, `REPLACE_WITH_SECRET`, `changeme`.
const PLACEHOLDER_WORDS: &[&str] = &[
    "here",
    "placeholder",
    "changeme",
    "dummy",
    "redacted",
    "replace",
    "insert",
    "todo",
    "fixme",
];

/// Runs of characters that mask a secret or stand for one.
const PLACEHOLDER_RUNS: &[&str] = &["xxxx", "****", "....", "…"];

/// Whether `value` stands in for a secret rather than being one: it is wrapped in
/// `<…>`, `{…}`, `[…]` or `%…%`, names an environment variable (`$API_KEY`, `${TOKEN}`,
/// `process.env.KEY`, an upper-case name with an underscore and no digit such as
/// `OPENAI_API_KEY`), holds a word of [`PLACEHOLDER_WORDS`], or repeats one character
/// after its prefix ([`masked`]).
fn placeholder(value: &str) -> bool {
    let v = value.trim_matches(|c| matches!(c, '"' | '\'' | '`'));
    let wrapped = |open: char, close: char| v.starts_with(open) && v.ends_with(close);
    // `$NAME` or `${NAME}`; a secret that only opens with `$` ("$ecret99") stays one.
    let variable = v.starts_with("${")
        || v.strip_prefix('$').is_some_and(|n| {
            !n.is_empty()
                && n.bytes()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        });
    if wrapped('<', '>')
        || wrapped('{', '}')
        || wrapped('[', ']')
        || wrapped('%', '%')
        || variable
        || v.starts_with("process.env")
        || v.starts_with("os.environ")
        || v.starts_with("env.")
    {
        return true;
    }
    let env_name = v.contains('_')
        && v.bytes().all(|c| c.is_ascii_uppercase() || c == b'_')
        && v.bytes().any(|c| c.is_ascii_uppercase());
    let lower = v.to_ascii_lowercase();
    // Words are whole parts of the value ("where2026" is no "here"); "your" opens one
    // ("yourpassword", "your-token").
    let word = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.starts_with("your") || PLACEHOLDER_WORDS.contains(&w));
    env_name || word || PLACEHOLDER_RUNS.iter().any(|r| lower.contains(r)) || masked(v)
}

/// Whether a token is a masked or made-up stand-in: after a prefix of letters and one of
/// `-_`, one character repeated (`sk-xxxxxxxxxxxx`, `ghp_************`, `00000000`).
fn masked(token: &str) -> bool {
    let body = token.rsplit_once(['-', '_']).map_or(token, |(_, b)| b);
    let mut chars = body.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    body.len() >= 4 && chars.all(|c| c == first)
}

/// Whether `s` mixes a letter with a digit or a sign, as a password does ("Summer2026!"),
/// where a word alone ("reset") does not, nor a name of code: small words joined by
/// underscores (`locked_until`, `reset_token`).
fn mixed(s: &str) -> bool {
    let snake = s
        .split('_')
        .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase()));
    s.chars().any(char::is_alphabetic) && s.chars().any(|c| !c.is_alphabetic()) && !snake
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans<'a>(text: &'a str, field: &Field<'_>) -> Vec<&'a str> {
        let d = Credential::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, field, &mut out);
        out.sort_by_key(|f| f.span.start);
        out.iter().map(|f| &text[f.span.clone()]).collect()
    }

    #[test]
    fn keys_tokens_and_passwords() {
        let none = Field::default();
        assert_eq!(
            spans("use sk-proj-abcdefghijklmnopqrstuvwx123 now", &none),
            ["sk-proj-abcdefghijklmnopqrstuvwx123"]
        );
        assert_eq!(
            spans("ghp_0123456789abcdefghijABCDEFGHIJ012345", &none),
            ["ghp_0123456789abcdefghijABCDEFGHIJ012345"]
        );
        assert_eq!(
            spans("key AKIAIOSFODNN7EXAMPLE", &none),
            ["AKIAIOSFODNN7EXAMPLE"]
        );
        assert_eq!(
            spans("Authorization: Bearer abc123DEF456ghi789", &none),
            ["abc123DEF456ghi789"]
        );
        assert_eq!(spans("password=Hunter2!x", &none), ["Hunter2!x"]);
        assert_eq!(spans("my password is S3cr3t-Pass", &none), ["S3cr3t-Pass"]);
        assert_eq!(spans("api_key: 9f8e7d6c5b4a", &none), ["9f8e7d6c5b4a"]);
        assert_eq!(spans("Passwort: Sommer2024", &none), ["Sommer2024"]);
        assert_eq!(spans("password: Tr0ub4dor&3", &none), ["Tr0ub4dor&3"]);
        assert_eq!(
            spans("?user=jo&password=Hunt3r22&next=x", &none),
            ["Hunt3r22"]
        );
        assert_eq!(
            spans("log in as ops, pw Summer2026!", &none),
            ["Summer2026!"]
        );
        assert_eq!(
            spans("the password is S3cr3t-Pass.", &none),
            ["S3cr3t-Pass"]
        );
        let f = Field {
            path: "/password",
            key: Some("password"),
            description: None,
            dictated: false,
        };
        assert_eq!(spans("correct-horse", &f), ["correct-horse"]);
        // A short secret word counts as a whole word of the key only.
        for (key, secret) in [
            ("auth", true),
            ("pin_code", true),
            ("otp", true),
            ("author", false),
            ("pinned_note", false),
        ] {
            let f = Field {
                path: "/x",
                key: Some(key),
                description: None,
                dictated: false,
            };
            assert_eq!(!spans("Zq7-editors", &f).is_empty(), secret, "{key}");
        }
    }

    #[test]
    fn passwords_told_in_other_languages() {
        let none = Field::default();
        for (text, secret) in [
            ("Het wachtwoord is Regen#2031 voor de wifi.", "Regen#2031"),
            ("hasło to Lato!2030 jakby co", "Lato!2030"),
            ("lösenordet är Vinter-44x om du behöver", "Vinter-44x"),
            ("şifrem Deniz!2029 lazım olursa", "Deniz!2029"),
            ("пароль Зима!2028 если нужно", "Зима!2028"),
            ("测试账号，密码 Qaz@2027，请查看", "Qaz@2027"),
            ("mật khẩu là Mua!2026x nhé", "Mua!2026x"),
            ("كلمة المرور هي Shams!2025 إذا احتجت", "Shams!2025"),
            // Words naming whose or which password, then a copula.
            (
                "Het wachtwoord van mijn account is Fiets!2025 als het moet.",
                "Fiets!2025",
            ),
            (
                "Mein Passwort lautet Sonne#2024, falls nötig.",
                "Sonne#2024",
            ),
            ("the password for the office wifi is Hx7!kq2 btw", "Hx7!kq2"),
            // A user name and password after a word for log-in details.
            (
                "my login is j.doe:W1nter!x if you need it",
                "j.doe:W1nter!x",
            ),
        ] {
            assert_eq!(spans(text, &none), [secret], "{text}");
        }
        // A word of the list inside another word, or followed by prose, names no secret.
        for text in [
            "una parolaccia detta per scherzo",
            "a senha forte é necessária para entrar",
            "zapomniałem hasła do konta",
            "la parola chiave è importante",
            "password reset for user42 failed again",
            "the password is required for account2024",
            "login is broken since 10:30 today",
        ] {
            assert!(
                spans(text, &none).is_empty(),
                "{text}: {:?}",
                spans(text, &none)
            );
        }
    }

    #[test]
    fn placeholders_are_no_secrets() {
        let none = Field::default();
        for text in [
            "api_key: YOUR_API_KEY_HERE",
            "password=<your-password>",
            "token: ${GITHUB_TOKEN}",
            "export OPENAI_API_KEY=$OPENAI_API_KEY",
            "apiKey: process.env.STRIPE_KEY",
            "secret = \"changeme\"",
            "key sk-xxxxxxxxxxxxxxxxxxxxxxxx",
            "password: ********",
            "client_secret: REPLACE_WITH_SECRET",
        ] {
            assert!(
                spans(text, &none).is_empty(),
                "{text}: {:?}",
                spans(text, &none)
            );
        }
        let key = Field {
            key: Some("api_key"),
            ..Field::default()
        };
        assert!(spans("<insert key>", &key).is_empty());
        assert!(spans("YOUR_KEY", &key).is_empty());
        assert_eq!(spans("Where2026!x", &key), ["Where2026!x"]);
        // A real-looking value still counts.
        assert_eq!(
            spans("api_key: Qx7vR2mK9pLw4tZ8", &none),
            ["Qx7vR2mK9pLw4tZ8"]
        );
        assert_eq!(spans("f9Ks02LmQ81xZ", &key), ["f9Ks02LmQ81xZ"]);
        assert_eq!(spans("$ecret99xQ", &key), ["$ecret99xQ"]);
    }

    #[test]
    fn true_negatives() {
        let none = Field::default();
        for s in [
            "reset your password via the link",
            "password: required",
            "task-1234 and sk-1",
            "the token limit is 4096",
            "id 123e4567-e89b-12d3-a456-426614174000",
            "fixed in 4f9c2a1b7d3e5f60718293a4b5c6d7e8f9012345",
            "pw reset needed",
            "the pwd command prints the directory",
            "password reset sets locked_until = 2099-01-01",
            "a senha grava reset_token_expiry no banco",
        ] {
            assert!(spans(s, &none).is_empty(), "{s}: {:?}", spans(s, &none));
        }
    }
}
