//! Biometric templates: a base64 or hex blob that decodes to an ISO/IEC 19794 record (its
//! magic `FMR\0` finger minutiae, `FIR\0` finger image, `FAC\0` face, `IIR\0` iris), or any
//! long blob or vector of numbers right after a biometric word or in a field named for one
//! ("fingerprint template", "face embedding", `face_feature`, "Fingerabdruck", "empreinte").

use crate::classify::pattern::LazyRegex as Regex;
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};

use super::context::{Keywords, regex};
use crate::classify::{Detector, Field};
use crate::error::Error;
use crate::item::{Finding, PsdKind};

/// Words naming biometric data (EN/DE/FR/ES/IT/NL/PT).
const WORDS: &[&str] = &[
    "fingerprint",
    "finger print",
    "minutiae",
    "biometric",
    "faceprint",
    "face embedding",
    "face vector",
    "face template",
    // As keys of a payload written in the text (`"face_embedding": "…"`, `faceVector=`).
    "face_embedding",
    "faceembedding",
    "face_vector",
    "facevector",
    "face_template",
    "face_encoding",
    "faceencoding",
    "face_feature",
    "facefeature",
    "face_descriptor",
    "facedescriptor",
    "voice_embedding",
    "speaker_embedding",
    "iris_code",
    "iris_template",
    "voice_print",
    "fingerprint_template",
    "voiceprint",
    "voice print",
    "iris code",
    "iris template",
    "iris scan",
    "voice id",
    "face id template",
    "retina",
    "iso 19794",
    "iso/iec 19794",
    "ansi 378",
    "fingerabdruck",
    "biometrisch",
    "empreinte",
    "biométrique",
    "huella",
    "biométrico",
    "impronta digitale",
    "biometrico",
    "vingerafdruk",
    "impressão digital",
];

/// Words naming a body trait a template is made of: a vector after a [`VECTOR_LABELS`] word
/// in a text that names one is that trait's template ("Face login fails …: embedding=[…]").
const TRAITS: &[&str] = &[
    "face",
    "faces",
    "facial",
    "voice",
    "speaker",
    "iris",
    "fingerprint",
    "fingerprints",
    "palm",
    "liveness",
    "gesicht",
    "stimme",
    "visage",
    "voix",
    "rostro",
    "voz",
    "volto",
    "voce",
];

/// Words that label a row of numbers as a model's output.
const VECTOR_LABELS: &[&str] = &[
    "embedding",
    "embeddings",
    "template",
    "vector",
    "features",
    "feature vector",
    "descriptor",
    "encoding",
];

/// ISO/IEC 19794 record magics.
const MAGICS: &[&[u8; 4]] = &[b"FMR\0", b"FIR\0", b"FAC\0", b"IIR\0", b"FCR\0"];

/// Finds biometric templates.
#[derive(Debug)]
pub(super) struct Biometric {
    blob: Regex,
    vector: Regex,
    short_vector: Regex,
    /// A short id or hash ("IRX-4471-0932", "3b9f0c77e1a24d58"), read only right after a
    /// biometric word.
    handle: Regex,
    words: Keywords,
    traits: Keywords,
    vector_labels: Keywords,
}

impl Biometric {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Biometric {
            blob: regex("biometric", r"[A-Za-z0-9+/_\-]{32,}={0,2}")?,
            vector: regex(
                "biometric",
                r"\[\s*-?\d*\.\d+(?:\s*,\s*-?\d*\.\d+){15,}\s*,?\s*(?:\.\.\.|…)?\s*\]?",
            )?,
            // Five decimals or more in a comma-separated row, bracketed or not, read only where
            // a biometric word or field says what they are ("FEAT:v3:0.08,-0.22,…"), or a
            // model's label before them in a text about a face, a voice, an iris.
            short_vector: regex("biometric", r"-?\d*\.\d+(?:\s*,\s*-?\d*\.\d+){4,}")?,
            handle: regex("biometric", r"[A-Za-z0-9][A-Za-z0-9\-]{4,30}[A-Za-z0-9]")?,
            words: Keywords::new("biometric", WORDS)?,
            traits: Keywords::new("biometric", TRAITS)?,
            vector_labels: Keywords::new("biometric", VECTOR_LABELS)?,
        })
    }
}

/// Whether the blob is (the start of) an ISO/IEC 19794 record.
fn has_magic(blob: &str) -> bool {
    let head = blob.get(..8).unwrap_or("");
    let decoded = STANDARD_NO_PAD
        .decode(head)
        .or_else(|_| URL_SAFE_NO_PAD.decode(head))
        .ok();
    let from_hex = || -> Option<Vec<u8>> {
        (0..4)
            .map(|i| {
                blob.get(2 * i..2 * i + 2)
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
            })
            .collect()
    };
    [decoded, from_hex()]
        .iter()
        .flatten()
        .any(|b| MAGICS.iter().any(|m| b.starts_with(&m[..])))
}

/// Whether `r` lies wholly inside a finding already made.
fn inside_found(found: &[Finding], r: &std::ops::Range<usize>) -> bool {
    found
        .iter()
        .any(|f| f.span.start <= r.start && r.end <= f.span.end)
}

impl crate::classify::shared::Gate for Biometric {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        text.len() >= 32
    }
}

impl Detector for Biometric {
    fn name(&self) -> &'static str {
        "biometric"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        if text.len() < 32 {
            return;
        }
        // Whether the field names biometric data: read once, when a match needs it.
        let field_cell = std::cell::OnceCell::new();
        let field_says = || *field_cell.get_or_init(|| self.words.in_field(field));
        // A run of 32 base64 characters at least.
        let mut run = 0usize;
        let blobby = text.bytes().any(|b| {
            run = if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'_' | b'-') {
                run + 1
            } else {
                0
            };
            run >= 32
        });
        for m in self
            .blob
            .find_iter(text)
            .take(if blobby { usize::MAX } else { 0 })
        {
            let lettered = m.as_str().bytes().any(|b| b.is_ascii_uppercase())
                || m.as_str().bytes().all(|b| b.is_ascii_hexdigit());
            if !lettered {
                continue;
            }
            if has_magic(m.as_str()) {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::Biometric,
                    0.95,
                    "biometric",
                ));
            } else if field_says() || self.words.before(text, m.start(), 80) {
                out.push(Finding::new(
                    m.range(),
                    PsdKind::Biometric,
                    0.8,
                    "biometric",
                ));
            }
        }
        // The id or hash of a stored template, told right after its word ("iris template ID
        // is IRX-4471-0932", "fingerprint hash 3b9f0c77…", "voiceprint VB-22817"): three
        // digits at least in eight characters or more (a reader's model "FP-200" is none),
        // within a few words of the biometric word. A text of fewer digits holds no such id:
        // its words are not sought.
        if super::context::has_digits(text, 3) && self.words.any_in(text) {
            for m in self.handle.find_iter(text) {
                let t = m.as_str();
                let seen = inside_found(out, &m.range());
                if !seen
                    && t.len() >= 8
                    && t.bytes().filter(u8::is_ascii_digit).count() >= 3
                    && self.words.before(text, m.start(), 28)
                {
                    out.push(Finding::new(
                        m.range(),
                        PsdKind::Biometric,
                        0.8,
                        "biometric",
                    ));
                }
            }
        }
        if text.contains('[') {
            for m in self.vector.find_iter(text) {
                if field_says() || self.words.before(text, m.start(), 80) {
                    out.push(Finding::new(
                        m.range(),
                        PsdKind::Biometric,
                        0.8,
                        "biometric",
                    ));
                }
            }
        }
        if text.contains(',') {
            for m in self.short_vector.find_iter(text) {
                let seen = inside_found(out, &m.range());
                let labelled = || {
                    self.vector_labels.before(text, m.start(), 16) && self.traits.any_word_in(text)
                };
                if !seen && (field_says() || self.words.before(text, m.start(), 40) || labelled()) {
                    out.push(Finding::new(
                        m.range(),
                        PsdKind::Biometric,
                        0.8,
                        "biometric",
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<&str> {
        let d = Biometric::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, &Field::default(), &mut out);
        out.iter().map(|f| &text[f.span.clone()]).collect()
    }

    #[test]
    fn template_ids_after_biometric_words() {
        assert_eq!(
            spans("For verification, my iris template ID is QZT-5512-0384 as registered."),
            ["QZT-5512-0384"]
        );
        assert_eq!(
            spans("Passed the voice check (voiceprint VK-90417, match 0.96) this morning."),
            ["VK-90417"]
        );
        assert!(
            spans("The office fingerprint reader model FP-200 needs new batteries soon.")
                .is_empty()
        );
        assert!(spans("Order number AB-1234-5678 shipped yesterday to the front desk.").is_empty());
    }

    #[test]
    fn iso_records_and_blobs_after_biometric_words() {
        // base64 of "FMR\0 20\0" followed by invented bytes.
        let rec = "Rk1SACAyMAAAAAEUAAABAAGQAMUAxQEAAAAoQ4A";
        assert_eq!(spans(&format!("export: {rec} done")), [rec]);
        let blob = "QmFzZTY0QmxvYk9mUmFuZG9tQnl0ZXNGb3JUZXN0aW5nMTIz";
        assert_eq!(spans(&format!("fingerprint template {blob}")), [blob]);
        let v =
            "[0.12, -0.5, 0.33, 0.9, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.1, 0.2, 0.3]";
        assert_eq!(spans(&format!("face embedding {v}")), [v]);
        // A payload's key names the blob.
        assert_eq!(
            spans(&format!(
                "payload: {{\"face_embedding\": \"b64:{blob}\", \"score\": 0.5}}"
            )),
            [blob]
        );
    }

    #[test]
    fn short_rows_of_decimals_in_a_biometric_field() {
        let d = Biometric::new().unwrap();
        let field = Field {
            path: "/face_feature",
            key: Some("face_feature"),
            description: None,
            dictated: false,
        };
        let text = "FEAT:v2:0.1942,-0.0713,0.2881,0.0105,-0.1377,0.0596,0.2210";
        let mut out = Vec::new();
        d.detect(text, &field, &mut out);
        let found: Vec<&str> = out.iter().map(|f| &text[f.span.clone()]).collect();
        assert_eq!(
            found,
            ["0.1942,-0.0713,0.2881,0.0105,-0.1377,0.0596,0.2210"]
        );
        // A model's output in a text about faces.
        let t = "Face unlock fails. Sample embedding=[0.21,-0.33,0.05,0.71,-0.12,...]";
        assert_eq!(spans(t), ["0.21,-0.33,0.05,0.71,-0.12"]);
        assert!(spans("Recommender embedding=[0.21,-0.33,0.05,0.71,-0.12] for item 7").is_empty());
        // The same row beside no biometric word or field is not read.
        assert!(
            spans("scores 0.1942,-0.0713,0.2881,0.0105,-0.1377,0.0596,0.2210 today").is_empty()
        );
    }

    #[test]
    fn other_blobs_are_not_biometric() {
        for s in [
            "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc",
            "sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "weights [0.12, -0.5, 0.33, 0.9, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.1, 0.2, 0.3]",
        ] {
            assert!(spans(s).is_empty(), "{s}");
        }
    }
}
