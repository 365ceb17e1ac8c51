//! Sample files: a file the call writes whose path says it stands for data rather than holds
//! it (`.env.example`, `tests/fixtures/…`, `seed_users.sql`, `demo-template.yaml`). Its values
//! are made up for the purpose, so a real person's name, number or condition in it is not
//! what the file needs: each goes and a placeholder of its kind takes its place, which keeps
//! the file's shape (a JSON fixture stays JSON, `KEY=value` stays a key with a value).

use crate::text::words::identifier_words;

/// Key words of the argument that names the file a call writes.
const PATH_KEYS: &[&str] = &["path", "filepath", "filename", "file", "destination"];

/// Words of a file's path that make it a sample whatever its type.
const SAMPLE_WORDS: &[&str] = &[
    "example",
    "examples",
    "sample",
    "samples",
    "fixture",
    "fixtures",
    "mock",
    "mocks",
    "seed",
    "seeds",
    "testdata",
    "template",
    "templates",
    "dummy",
    "fake",
    "fakes",
    "placeholder",
    "stub",
    "stubs",
];

/// Words that make a file a sample only in source code (`test_billing.py`, `spec/users.rb`):
/// a "test" may be a medical one in a document of the user's own.
const TEST_WORDS: &[&str] = &["test", "tests", "spec", "specs", "__tests__"];

/// Extensions of source code and its configuration.
const SOURCE_EXTENSIONS: &[&str] = &[
    "py", "js", "ts", "jsx", "tsx", "rb", "go", "rs", "java", "kt", "cs", "php", "swift", "scala",
    "json", "yaml", "yml", "toml", "sql", "env", "ini", "cfg", "xml",
];

/// Whether an argument of the call names a sample file it writes.
pub(super) fn writes_sample_file(args: crate::args::Arg<'_>) -> bool {
    let Some(obj) = args.members() else {
        return false;
    };
    obj.filter(|(k, _)| is_path_key(k))
        .filter_map(|(_, v)| v.as_str())
        .any(is_sample_path)
}

/// Whether `key` names the file a call writes (`path`, `file_path`, `fileName`).
pub(super) fn is_path_key(key: &str) -> bool {
    let words = identifier_words(key);
    let joined: String = words.iter().map(|w| w.as_str()).collect();
    PATH_KEYS.contains(&joined.as_str())
        || words
            .last()
            .is_some_and(|w| PATH_KEYS.contains(&w.as_str()))
}

/// Whether a file path names a sample, example, fixture or template file.
fn is_sample_path(path: &str) -> bool {
    let words: Vec<String> = path
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .flat_map(|part| part.split('_'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.iter().any(|w| SAMPLE_WORDS.contains(&w.as_str())) {
        return true;
    }
    let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let extension = file.rsplit_once('.').map(|(_, e)| e.to_lowercase());
    let source = file.starts_with(".env")
        || extension.is_some_and(|e| SOURCE_EXTENSIONS.contains(&e.as_str()));
    source
        && path
            .split(['/', '\\', '.', '_', '-'])
            .any(|w| TEST_WORDS.contains(&w.to_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn sample_paths_are_told_from_documents() {
        for p in [
            ".env.example",
            "config/settings.sample.toml",
            "tests/fixtures/people.json",
            "db/seed_users.sql",
            "docs/invite-template.md",
            "src/__tests__/billing.test.ts",
            "spec/models/user_spec.rb",
        ] {
            assert!(is_sample_path(p), "{p}");
        }
        for p in [
            "notes/blood_test_results.txt",
            "trip.txt",
            "/home/ana/letters/landlord.docx",
            "contacts.json",
            "latest.csv",
        ] {
            assert!(!is_sample_path(p), "{p}");
        }
    }

    #[test]
    fn the_path_argument_is_found_by_its_key() {
        assert!(writes_sample_file(
            (&json!({"file_path": "fixtures/a.json", "content": "{}"})).into()
        ));
        assert!(writes_sample_file(
            (&json!({"fileName": "example.env", "content": ""})).into()
        ));
        assert!(!writes_sample_file(
            (&json!({"title": "sample size question", "body": "…"})).into()
        ));
        assert!(is_path_key("path") && is_path_key("targetFilePath") && !is_path_key("content"));
    }
}
