//! Detector-level tests: fields, running text and a benign corpus.

use super::*;

#[test]
fn names_in_a_greeting_and_a_signature() {
    use crate::classify::{Field, names};
    use crate::item::PsdKind;

    let detectors = names::detectors().unwrap();
    let mut out = Vec::new();
    let text = "Hi Dana,\nthe report is attached.\n– Ethan Brooks";
    for d in &detectors {
        d.detect(text, &Field::default(), &mut out);
    }
    let found: Vec<&str> = out.iter().map(|f| &text[f.span.clone()]).collect();
    assert_eq!(found, ["Dana", "Ethan Brooks"]);
    assert!(out.iter().all(|f| f.kind == PsdKind::PersonName));
}

#[test]
fn a_dash_signs_only_at_a_line_start_or_after_a_sentence() {
    let plain = Field::default();
    assert_eq!(
        found("See you Friday! - Ola Brenna", &plain),
        ["Ola Brenna"]
    );
    assert_eq!(found("Noted.\n— Ola Brenna", &plain), ["Ola Brenna"]);
    // A dash between two parts of one line joins them: German nouns are capitalised.
    assert!(found("Rollstuhl - Öffnungszeiten Bürgeramt", &plain).is_empty());
    assert!(found("Gartenmöbel - Angebote Baumarkt", &plain).is_empty());
}

#[test]
fn a_place_alone_after_a_label_is_no_name() {
    let plain = Field::default();
    assert!(found("Owner: Leeds. Built 1974.", &plain).is_empty());
    assert_eq!(found("Owner: Leeds Halvorsen", &plain), ["Leeds Halvorsen"]);
    // A given name that is also a place still names someone after a label.
    assert_eq!(found("Patient: Florence", &plain), ["Florence"]);
}

#[test]
fn a_given_name_with_the_honorific_after_it() {
    let plain = Field::default();
    assert_eq!(
        found("Müdürüm Tarık Bey izni onayladı.", &plain),
        ["Tarık Bey"]
    );
    assert_eq!(
        found("Komşum Elif Hanım anahtarı aldı.", &plain),
        ["Elif Hanım"]
    );
}

fn scan(text: &str, field: &Field<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    PersonNames::new().detect(text, field, &mut out);
    out
}

fn found<'t>(text: &'t str, field: &Field<'_>) -> Vec<&'t str> {
    scan(text, field)
        .iter()
        .map(|f| &text[f.span.clone()])
        .collect()
}

fn keyed<'a>(path: &'a str, key: &'a str, description: Option<&'a str>) -> Field<'a> {
    Field {
        path,
        key: Some(key),
        description,
        dictated: false,
    }
}

#[test]
fn whole_values_of_name_fields() {
    assert_eq!(
        found("Kwame", &keyed("/first_name", "first_name", None)),
        ["Kwame"]
    );
    assert_eq!(
        found("Mensah", &keyed("/last_name", "last_name", None)),
        ["Mensah"]
    );
    assert_eq!(
        found(
            "Sofia Rossi",
            &keyed("/cardholder_name", "cardholder_name", None)
        ),
        ["Sofia Rossi"]
    );
    assert_eq!(
        found(
            "Hiroshi Tanaka",
            &keyed("/attendees/0/displayName", "displayName", None)
        ),
        ["Hiroshi Tanaka"]
    );
    assert_eq!(
        found("Leila Moradi", &keyed("/entities/0/name", "name", None)),
        ["Leila Moradi"]
    );
    assert_eq!(
        found("Müller", &keyed("/Nachname", "Nachname", None)),
        ["Müller"]
    );
    assert_eq!(found("Anaïs", &keyed("/prenom", "prénom", None)), ["Anaïs"]);
    let f = scan("Nia", &keyed("/firstname", "firstname", None));
    assert_eq!(f.first().map(|f| f.confidence), Some(0.95));
}

#[test]
fn name_keys_on_things_do_not_fire() {
    assert!(
        found(
            "toolminimize",
            &keyed("/name", "name", Some("Repository name"))
        )
        .is_empty()
    );
    assert!(
        found(
            "Quarterly Report",
            &keyed("/name", "name", Some("The name of the file"))
        )
        .is_empty()
    );
    assert!(found("General", &keyed("/name", "name", Some("Channel name"))).is_empty());
    assert!(found("Blue Widget", &keyed("/name", "name", None)).is_empty());
    assert!(found("main", &keyed("/name", "name", None)).is_empty());
    assert!(
        found(
            "feature/login-fix",
            &keyed("/branch_name", "branch_name", None)
        )
        .is_empty()
    );
}

#[test]
fn running_text_and_handles_together() {
    let text = "Summary for Sofia Rossi (sofia.rossi@libero.it): order shipped";
    assert_eq!(
        found(text, &Field::default()),
        ["Sofia Rossi", "sofia.rossi"]
    );
}

#[test]
fn long_text_is_scanned_whole_and_does_not_panic() {
    // Names after the first 256 KiB were once never looked at.
    let mut text = "x".repeat(256 * 1024 - 1);
    text.push('é');
    text.push_str(" Rebecca Stone");
    assert_eq!(found(&text, &Field::default()), ["Rebecca Stone"]);
    assert!(found("", &Field::default()).is_empty());
    assert!(found("’’--@@..", &Field::default()).is_empty());
}

/// Realistic benign tool-call strings (no person's name in them).
const BENIGN: &[&str] = &[
    // English: shopping, weather, travel, code, files, SQL.
    "wireless noise cancelling headphones under $200",
    "Jordan shoes size 44 black",
    "Ford Focus 2019 used price",
    "Dell XPS 13 replacement battery",
    "Apple MacBook Air M3 15 inch",
    "weather forecast San Francisco this weekend",
    "weather in Santa Monica tomorrow morning",
    "Will it rain in Seattle on Friday?",
    "hourly forecast St. Louis MO",
    "flights from JFK to Heathrow on June 12",
    "cheapest flight Boston to Washington Dulles",
    "hotels near Victoria Station London",
    "pharmacy opening hours Leicester Square London Sunday",
    "divorce lawyer Houston free consultation",
    "farmers market Portland Saturday morning",
    "train from Paris Gare de Lyon to Marseille",
    "restaurants open now in Austin Texas",
    "best pizza in Brooklyn",
    "museums in Florence Italy",
    "directions to Mount Vernon trail",
    "git commit -m \"Fix null pointer in UserService\"",
    "git checkout -b feature/add-login-page",
    "git rebase origin/main",
    "git log --author=ci-bot --since=2.weeks",
    "SELECT name, email FROM users WHERE created_at > '2024-01-01' LIMIT 10",
    "UPDATE orders SET status = 'shipped' WHERE id = 4411",
    "CREATE INDEX idx_orders_customer ON orders (customer_id)",
    "/home/runner/work/app/src/main.rs",
    "C:\\Users\\Public\\Documents\\report_final.docx",
    "src/components/UserProfile.tsx",
    "docs/Getting Started.md",
    "Quarterly Report Q3 2024.pdf",
    "How do I reset my router password?",
    "Mark the invoice as paid",
    "Grant read access to the analytics bucket",
    "Hello World example in Rust",
    "Dear Sir or Madam, please find the invoice attached.",
    "Hi team, the deploy is done.",
    "Thanks, see you at the standup.",
    "Create a calendar event: Team Sync every Monday at 10am",
    "Book a table for four at 7pm",
    "Set a reminder for Tuesday 9:00 dentist",
    "convert 250 USD to EUR",
    "latest news on the European Central Bank",
    "How tall is the Eiffel Tower?",
    "Victoria Falls travel guide",
    "Georgia Tech admissions deadline",
    "Lincoln Memorial opening hours",
    "Charlotte airport parking rates",
    "Jackson Hole ski pass prices",
    "Chelsea vs Arsenal score",
    "Amazon Prime Day deals on Kindle",
    "Ruby on Rails migration add column",
    "Julia language parallel loops",
    "npm install react-router-dom@6",
    "docker run -p 8080:80 nginx:latest",
    "kubectl get pods -n production",
    "Summarize the attached PDF in 5 bullet points",
    "Translate 'good morning' into Japanese",
    "What is the capital of Australia?",
    "Find vegan recipes with chickpeas",
    "Track package 1Z999AA10123456784",
    "Play the top 50 playlist",
    // German.
    "Wetter in München morgen",
    "Zugverbindung von Berlin Hauptbahnhof nach Hamburg",
    "Hotel in der Nähe vom Alexanderplatz",
    "günstige Flüge nach Mallorca im August",
    "Rezept für Apfelstrudel",
    "Öffnungszeiten Rathaus Köln",
    "Bitte die Rechnung als bezahlt markieren",
    "Termin am Montag um 10 Uhr",
    "Neue Laufschuhe Größe 42",
    "Datei Bericht_2024.xlsx hochladen",
    "Wie wird das Wetter in Frankfurt am Main?",
    "Museumsinsel Berlin Tickets",
    // French.
    "météo à Lyon demain",
    "vol Paris Charles de Gaulle vers Nice",
    "restaurants près de la Tour Eiffel",
    "horaires du musée du Louvre",
    "acheter un vélo électrique pas cher",
    "Réserver une table pour deux ce soir",
    "itinéraire vers Bordeaux en voiture",
    "Bonjour, je voudrais annuler ma commande.",
    "fichier rapport_annuel.pdf",
    "prévisions météo Saint-Étienne",
    // Spanish.
    "el tiempo en Madrid mañana",
    "vuelos baratos a Barcelona en julio",
    "hoteles cerca de la Plaza Mayor",
    "receta de paella valenciana",
    "horario del Museo del Prado",
    "comprar zapatillas de running",
    "Hola, ¿cuál es el estado de mi pedido?",
    "tren de Sevilla a Córdoba",
    "clima en San José Costa Rica",
    "reservar mesa para cuatro el viernes",
    // Italian.
    "meteo a Roma domani",
    "voli economici per Milano",
    "hotel vicino a Piazza San Marco",
    "orari dei Musei Vaticani",
    "ricetta del tiramisù",
    "treno da Firenze a Venezia",
    "comprare scarpe da ginnastica",
    "Buongiorno, vorrei prenotare una camera",
    "Santa Maria Novella orari",
    "prenotare un tavolo per due sabato",
];

#[test]
fn benign_corpus_rarely_yields_a_name() {
    assert!(BENIGN.len() >= 100);
    let hits: Vec<(&str, Vec<&str>)> = BENIGN
        .iter()
        .map(|t| (*t, found(t, &Field::default())))
        .filter(|(_, f)| !f.is_empty())
        .collect();
    assert!(
        hits.len() <= 2,
        "{} benign strings with names: {hits:?}",
        hits.len()
    );
}

#[test]
fn realistic_leaks_are_found() {
    let cases: &[(&str, &[&str])] = &[
        (
            "wind forecast tomorrow near Cleveland Clinic - Oluwaseun Adeyemi radiation 9:30",
            &["Oluwaseun Adeyemi"],
        ),
        (
            "search: Giulia Ferraro oncologist Milano",
            &["Giulia Ferraro"],
        ),
        (
            "Please tell Dr. Haddad that Mrs. Okafor will be late",
            &["Haddad", "Okafor"],
        ),
        (
            "hotel booking for Priya Raghunathan, 2 nights",
            &["Priya Raghunathan"],
        ),
        ("Treffen mit Jürgen Baumann am Freitag", &["Jürgen Baumann"]),
        ("rendez-vous de ma fille Chloé chez le dentiste", &["Chloé"]),
        ("mi hijo Mateo tiene fiebre", &["Mateo"]),
        ("Cordiali saluti,\nMarco Esposito", &["Marco Esposito"]),
        (
            "lunch with Wojciech Nowak and Agnieszka Kowalska",
            &["Wojciech Nowak", "Agnieszka Kowalska"],
        ),
    ];
    for (text, want) in cases {
        assert_eq!(&found(text, &Field::default()), want, "{text}");
    }
}

#[test]
fn the_writers_i_after_a_greeting_is_no_name() {
    for text in [
        "Hello, I'm off sick today.",
        "Hi, I'll be late, my train is cancelled.",
        "Good morning, I've sent the report.",
        "Hey, I\u{2019}d like to move our call.",
    ] {
        assert!(found(text, &Field::default()).is_empty(), "{text}");
    }
    assert_eq!(
        found("Hello Marta, I'm running late.", &Field::default()),
        ["Marta"]
    );
}

#[test]
fn eponymous_brands_and_business_fields_are_not_people() {
    for text in [
        "Ralph Lauren polo shirt",
        "Louis Vuitton Neverfull prix",
        "Calvin Klein boxer briefs 3-pack",
        "Tommy Hilfiger jacket sale",
        "Team lunch at Pizzeria Da Michele, Via Roma 4",
        "Brötchen von der Bäckerei Schulte holen",
        "Treffen im Café Anna am Markt",
        "dîner à la Brasserie Georges vendredi",
        "cena en la Taquería Don Ramón",
    ] {
        assert!(found(text, &Field::default()).is_empty(), "{text}");
    }
    // A venue word in lower case is no venue's name: the person after it counts.
    assert_eq!(
        found("met at the bar Julia Weber recommended", &Field::default()),
        ["Julia Weber"]
    );
    for (key, value) in [
        ("restaurant", "Ristorante Da Vittorio"),
        ("restaurant", "Le Bouchon des Filles"),
        ("hotel_name", "Hotel Maria Theresia"),
        ("merchant", "Chez Marie"),
    ] {
        assert!(
            found(value, &keyed("/x", key, None)).is_empty(),
            "{key}: {value}"
        );
    }
    // The same words in running text about people still count.
    assert_eq!(
        found("Dinner with Vittorio Rossi tonight", &Field::default()),
        ["Vittorio Rossi"]
    );
    assert_eq!(
        found("please ask Ralph Jenkins", &Field::default()),
        ["Ralph Jenkins"]
    );
}

#[test]
fn names_after_elision_relations_roles_and_lone_names_before_a_verb() {
    let none = Field::default();
    assert_eq!(found("le dossier d'Anaïs est prêt", &none), ["Anaïs"]);
    assert_eq!(found("l'avocat de Marc a appelé", &none), ["Marc"]);
    assert_eq!(found("la figlia di Marta è a casa", &none), ["Marta"]);
    assert_eq!(
        found("and my flatmate Jonah, who is on leave", &none),
        ["Jonah"]
    );
    assert_eq!(found("Your daughter Priya called us", &none), ["Priya"]);
    assert_eq!(found("Brat Piotr nie może przyjść.", &none), ["Piotr"]);
    assert_eq!(
        found("The meeting moved. Gregor can't attend.", &none),
        ["Gregor"]
    );
    assert_eq!(found("A D. Lurdes não vem", &none), ["Lurdes"]);
    assert_eq!(found("Broren min Sindre kommer ikke", &none), ["Sindre"]);
    assert_eq!(
        found("For my husband - I'm Gregor; we met in 2015", &none),
        ["Gregor"]
    );
    assert_eq!(found("Hallo, ich bin Jonas und", &none), ["Jonas"]);
    assert_eq!(found("Sonen Vilgot har feber", &none), ["Vilgot"]);
    assert_eq!(found("Mijn buurvrouw Anke is ziek", &none), ["Anke"]);
    // A lone given name after "to", "till", "a", "aan", or before more verbs.
    assert_eq!(
        found("Don't mention it to Gudrun please", &none),
        ["Gudrun"]
    );
    assert_eq!(found("Säg inget till Viggo om det", &none), ["Viggo"]);
    assert_eq!(
        found("No invites a Eustaquio al final", &none),
        ["Eustaquio"]
    );
    assert_eq!(found("Stuur het aan Femke door", &none), ["Femke"]);
    assert_eq!(
        found("Thanks. Philippa may dial in late.", &none),
        ["Philippa"]
    );
    assert_eq!(found("Demo is vrijdag. Joost kon niet.", &none), ["Joost"]);
    // A place or a word after "to" is no name.
    for text in ["We fly to Lisbon on Monday.", "Send it to Support today."] {
        assert!(
            found(text, &none).is_empty(),
            "{text}: {:?}",
            found(text, &none)
        );
    }
    // Places, words and brands before a verb are not names.
    for text in [
        "Paris is lovely in May.",
        "Will can be tricky.",
        "Alexa can set a timer.",
        "Côte d'Ivoire is hot",
        "Orleans Parish court calendar",
        // Subject pronouns that are given names elsewhere.
        "Sie kommt morgen um neun.",
        "Ela tem consulta amanhã.",
        "Hun kommer i morgen.",
    ] {
        assert!(
            found(text, &none).is_empty(),
            "{text}: {:?}",
            found(text, &none)
        );
    }
}

#[test]
fn russian_and_ukrainian_names_in_an_oblique_case() {
    let plain = Field::default();
    for (text, name) in [
        ("Передай Ивану Петрову документы.", "Ивану Петрову"),
        ("Вчера я был у Марии Ивановой.", "Марии Ивановой"),
        ("Встреча с Ольгой Смирновой в пятницу.", "Ольгой Смирновой"),
        ("Спроси у Алексея Кузнецова.", "Алексея Кузнецова"),
        ("Я говорил с Игорем Волковым.", "Игорем Волковым"),
        ("Зустріч з Андрієм Шевченком у середу.", "Андрієм Шевченком"),
        ("Напиши Олені Коваленко.", "Олені Коваленко"),
        ("Позвони Ивану вечером.", "Ивану"),
        // With a patronymic, in the nominative and in oblique cases.
        ("Передай Ивану Петровичу документы.", "Ивану Петровичу"),
        ("Встреча с Анной Сергеевной в пятницу.", "Анной Сергеевной"),
        ("Я говорил с Игорем Алексеевичем.", "Игорем Алексеевичем"),
        ("Спроси у Ольги Игоревны.", "Ольги Игоревны"),
        ("Зустріч з Оленою Іванівною у середу.", "Оленою Іванівною"),
        (
            "Передай Ивану Петровичу Смирнову документы.",
            "Ивану Петровичу Смирнову",
        ),
    ] {
        assert_eq!(found(text, &plain), [name], "{text}");
    }
}

#[test]
fn russian_capitalised_words_that_are_no_names() {
    let plain = Field::default();
    for text in [
        "Встреча в Москве в пятницу.",
        "Вчера в Новой Зеландии был праздник.",
        "Сбербанку России нужен отчёт.",
        "Документы по Красной площади.",
        "Спасибо, до завтра!",
        "Поездка в Санкт-Петербург с Марком и Ко.",
        // A word that could be a form of a given name, before a capitalised word that is no
        // family name: "for the sake of Moscow", "to the faith of Europe".
        "Ради Москвы мы готовы на всё.",
        "Тому Майкрософт не рад.",
    ] {
        let got = found(text, &plain);
        assert!(got.iter().all(|n| *n == "Марком"), "{text}: {got:?}");
    }
}

#[test]
fn family_name_first_in_latin_letters() {
    let none = Field::default();
    assert_eq!(
        found("Kovács Bence vagyok, holnap jövök.", &none),
        ["Kovács Bence"]
    );
    assert_eq!(found("Holnap jön Nagy Anna is.", &none), ["Nagy Anna"]);
    // A word or a place first is no family name.
    assert!(found("Budapest Anna nélkül", &none).is_empty());
}

#[test]
fn a_lone_given_name_opening_a_clause_before_a_verb() {
    let none = Field::default();
    assert_eq!(
        found("I can't come tomorrow, Steven is sick.", &none),
        ["Steven"]
    );
    // An everyday word that is also a name is not one.
    assert!(found("Yes, Grace is needed here.", &none).is_empty());
}
