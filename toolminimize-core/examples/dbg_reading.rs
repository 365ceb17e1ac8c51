use toolminimize_core::decide::reading::Reading;
fn main() {
    let t = std::env::args().nth(1).unwrap_or_default();
    let r = Reading::new(&t);
    for c in &r.clauses {
        println!("{:?} {:?} paren={} sent={} req={} reason={} fp={} rel={}", &t[c.clause.range.clone()], c.words, c.clause.parenthetical, c.clause.sentence, c.request, c.reason, c.first_person, c.relation);
    }
    println!("segments {:?}", r.segments);
}
