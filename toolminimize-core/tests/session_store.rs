//! Session state when calls are decided on a view that may be stale (a shared store serving a
//! local copy, or calls of one session running at once): each call commits what it read, and
//! one decided on a view that no longer holds is rewritten on the current state. The outcome
//! is the same as with a view that is always current.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use toolminimize_core::store::{
    Commit, SessionKey, SessionReads, SessionState, SessionUpdate, StoreError,
};
use toolminimize_core::{Call, MemoryStore, Minimizer, Session, SessionStore, ToolDef};

/// A store whose view is always empty (as stale as a view can be) in front of a memory store
/// that checks commits; counts commits and the ones that found the session changed.
#[derive(Debug)]
struct StaleView {
    inner: MemoryStore,
    commits: AtomicUsize,
    changed: AtomicUsize,
}

impl StaleView {
    fn new() -> Self {
        StaleView {
            inner: MemoryStore::new(100, Duration::from_secs(3600)),
            commits: AtomicUsize::new(0),
            changed: AtomicUsize::new(0),
        }
    }
}

impl SessionStore for StaleView {
    fn key(&self) -> SessionKey {
        self.inner.key()
    }
    fn load(&self, id: &str) -> Result<SessionState, StoreError> {
        self.inner.load(id)
    }
    fn save(&self, id: &str, update: &SessionUpdate) -> Result<(), StoreError> {
        self.inner.save(id, update)
    }
    fn view(&self, _id: &str) -> Result<SessionState, StoreError> {
        Ok(SessionState::default())
    }
    fn commit(
        &self,
        id: &str,
        reads: &SessionReads,
        update: &SessionUpdate,
    ) -> Result<Commit, StoreError> {
        self.commits.fetch_add(1, Ordering::SeqCst);
        let c = self.inner.commit(id, reads, update)?;
        if matches!(c, Commit::Changed(_)) {
            self.changed.fetch_add(1, Ordering::SeqCst);
        }
        Ok(c)
    }
}

fn research_tool() -> ToolDef {
    ToolDef::from_json(&json!({
        "name": "ask_research_agent",
        "description": "Ask a research agent a question.",
        "inputSchema": {"type": "object", "properties": {
            "question": {"type": "string"},
            "profile": {"type": "string", "x-psd-category": "identity"}},
        "required": ["question"]}
    }))
    .unwrap()
}

fn ticket_tool() -> ToolDef {
    ToolDef::from_json(&json!({
        "name": "file_ticket",
        "description": "File a support ticket.",
        "inputSchema": {"type": "object", "properties": {
            "summary": {"type": "string"},
            "reporter": {"type": "string", "x-minimize": "substitute"}},
        "required": ["summary", "reporter"]}
    }))
    .unwrap()
}

fn forwarded(m: &Minimizer, tool: &ToolDef, args: &Value, session: &Session) -> Value {
    match m
        .minimize_call(&Call::new(tool, args).session(session))
        .into_arguments()
    {
        Ok(v) => v,
        Err(r) => panic!("blocked: {r}"),
    }
}

#[test]
fn a_fragment_decided_on_a_stale_view_is_still_caught() {
    let m = Minimizer::new().unwrap();
    let tool = research_tool();
    let store = Arc::new(StaleView::new());
    let session = Session::in_store("conv-a", store.clone());
    let first =
        json!({"question": "visa rules for working holidays", "profile": "Maren Tollefsen"});
    assert_eq!(forwarded(&m, &tool, &first, &session), first);
    assert_eq!(store.changed.load(Ordering::SeqCst), 0);
    // Decided on an empty view, the date of birth would go; the commit finds the tool already
    // holds the name, and the call is rewritten on the current state.
    let second = json!({"question": "visa rules for someone born 1987-03-09, any age limits?"});
    let out = forwarded(&m, &tool, &second, &session);
    assert!(!out.to_string().contains("1987-03-09"), "{out}");
    assert_eq!(store.changed.load(Ordering::SeqCst), 1);
    assert_eq!(store.commits.load(Ordering::SeqCst), 3);
    assert_eq!(session.calls_seen(), 2);

    // The same calls with a view that is always current give the same output.
    let fresh: Arc<dyn SessionStore> = Arc::new(MemoryStore::new(100, Duration::from_secs(60)));
    let session = Session::in_store("conv-a", fresh);
    forwarded(&m, &tool, &first, &session);
    assert_eq!(forwarded(&m, &tool, &second, &session), out);
}

#[test]
fn placeholders_decided_on_a_stale_view_stay_consistent() {
    let m = Minimizer::new().unwrap();
    let tool = ticket_tool();
    let store = Arc::new(StaleView::new());
    let session = Session::in_store("conv-b", store.clone());
    let call = |name: &str| {
        let out = forwarded(
            &m,
            &tool,
            &json!({"summary": "printer jams", "reporter": name}),
            &session,
        );
        out["reporter"].as_str().unwrap().to_owned()
    };
    assert_eq!(call("Anna Berg"), "[PERSON_1]");
    // A stale view would number this one 1 as well; the commit sees the class's count moved.
    assert_eq!(call("Lukas Meyer"), "[PERSON_2]");
    // And this one, whose number only the session knows, gets it back.
    assert_eq!(call("Anna Berg"), "[PERSON_1]");
    assert_eq!(store.changed.load(Ordering::SeqCst), 2);
}

#[test]
fn calls_of_one_session_at_once_never_share_a_placeholder() {
    let m = Arc::new(Minimizer::new().unwrap());
    let store: Arc<dyn SessionStore> = Arc::new(MemoryStore::new(100, Duration::from_secs(60)));
    let names = [
        "Anna Berg",
        "Lukas Meyer",
        "Sofia Lindqvist",
        "Jonas Keller",
        "Clara Moreau",
        "Pedro Alves",
        "Marta Nowak",
        "Emil Strand",
    ];
    let threads: Vec<_> = names
        .iter()
        .map(|name| {
            let (m, store) = (Arc::clone(&m), Arc::clone(&store));
            let name = (*name).to_owned();
            std::thread::spawn(move || {
                let session = Session::in_store("conv-c", store);
                let out = forwarded(
                    &m,
                    &ticket_tool(),
                    &json!({"summary": "printer jams", "reporter": name}),
                    &session,
                );
                out["reporter"].as_str().unwrap().to_owned()
            })
        })
        .collect();
    let mut got: Vec<String> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    got.sort();
    let mut want: Vec<String> = (1..=names.len()).map(|n| format!("[PERSON_{n}]")).collect();
    want.sort();
    assert_eq!(got, want);
}
