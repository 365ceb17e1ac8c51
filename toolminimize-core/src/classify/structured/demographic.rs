//! Quasi-identifiers by their structure rather than by a word list:
//!
//! - **Sex and age together**, as case notes and profiles write them: `f, 38`, `M/45`,
//!   `38F` at the start of a post or after "I'm", `age 52, female`, `männlich, 61 J.`; the
//!   sex word next to an age is the person's gender, the number their age.
//! - **Gender fields**: a field named `gender`, `sex`, `Geschlecht`, `sexe`, `sexo`, … holding
//!   a short word.
//! - **Employer and school**: an organisation name (capitalised words) right after a phrase of
//!   working or studying there ("works at", "engineer at", "laid off from", "student at",
//!   "ingénieur chez", "arbeitet bei", "trabaja en", "lavora presso", "werkt bij", "jobbar på",
//!   "pracuje w"): the structure says it is someone's employer, whatever the company. Also
//!   after a pay document or a count of time spent there ("pay stubs from", "3 years at"
//!   when the count is said of oneself), and before an apposition that names it ("Harbor
//!   Freightways (my old employer)", "Acme, my former employer,").
//! - **Age bands and own language in fields** named for them (`Age group`: "35-39",
//!   `preferred_language`, `Muttersprache`, `langue maternelle`): a language spoken at home
//!   narrows down who someone is (a demographic preference, and a proxy for origin); the
//!   language a tool should answer in (`target_language`) is not about the person.

use crate::classify::pattern::LazyRegex as Regex;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use super::context::{capitalised_run, char_at, char_before, regex};
use crate::classify::need::{WordsNeed, may_hold_upper};
use crate::classify::{Detector, Field};
use crate::error::{Error, ErrorKind};
use crate::item::{Finding, PsdKind};

/// Sex and gender words (EN/DE/FR/ES/IT/PT/NL/SV/DA/NO/PL/CS).
const SEX_WORDS: &str = r"female|male|woman|man|non-binary|nonbinary|weiblich|männlich|divers|femme|homme|féminin|masculin|mujer|hombre|femenino|masculino|donna|uomo|femmina|maschio|mulher|homem|vrouw|man|kvinna|kvinde|kvinne|mann|kobieta|mężczyzna|žena|muž";

/// Keys (lower case, letters only) of gender fields.
const GENDER_KEYS: &[&str] = &[
    "gender",
    "sex",
    "geschlecht",
    "sexe",
    "genre",
    "sexo",
    "genero",
    "género",
    "sesso",
    "genere",
    "geslacht",
    "kön",
    "køn",
    "kjønn",
    "płeć",
    "plec",
    "pohlaví",
    "pohlavi",
    "性別",
];

/// Keys (lower case, letters only) of fields holding an age band ("35-39", "65+").
const AGE_GROUP_KEYS: &[&str] = &[
    "agegroup",
    "agerange",
    "ageband",
    "agebracket",
    "agecategory",
    "altersgruppe",
    "altersklasse",
    "trancheage",
    "tranchedage",
    "grupoedad",
    "grupodeedad",
    "rangoedad",
    "rangodeedad",
    "fasciaeta",
    "fasciadieta",
    "faixaetaria",
    "leeftijdsgroep",
    "leeftijdscategorie",
    "aldersgrupp",
    "aldersgruppe",
    "grupawiekowa",
    "vekovaskupina",
    "年齢層",
    "年代",
];

/// Keys (lower case, letters only) of fields holding a marital or family status.
const MARITAL_KEYS: &[&str] = &[
    "marital",
    "maritalstatus",
    "civilstatus",
    "familystatus",
    "relationshipstatus",
    "familienstand",
    "etatcivil",
    "situationfamiliale",
    "estadocivil",
    "statocivile",
    "burgerlijkestaat",
    "civilstand",
    "sivilstand",
    "stancywilny",
    "rodinnystav",
    "婚姻状況",
];

/// Keys of fields holding the language a person speaks at home or prefers, not the language
/// a tool should use ("target_language", "lang").
const OWN_LANGUAGE_KEYS: &[&str] = &[
    "preferredlanguage",
    "nativelanguage",
    "firstlanguage",
    "mothertongue",
    "homelanguage",
    "primarylanguage",
    "spokenlanguage",
    "spokenlanguages",
    "languagespokenathome",
    "muttersprache",
    "erstsprache",
    "languematernelle",
    "languepreferee",
    "lenguamaterna",
    "idiomamaterno",
    "idiomapreferido",
    "madrelingua",
    "linguamadre",
    "linguamaterna",
    "moedertaal",
    "modersmal",
    "modersmål",
    "morsmal",
    "morsmål",
    "jezykojczysty",
    "językojczysty",
    "materskyjazyk",
    "mateřskýjazyk",
    "母語",
];

/// Work verbs that follow the employer's name in languages that mark the place with a case
/// ending (Hungarian "a Telekomnál dolgozom", Turkish "Garanti Bankası'nda çalışıyorum"),
/// with the endings the name must carry (Turkish writes a proper noun's ending after an
/// apostrophe, so "Evde çalışıyorum", at home, is no employer).
const WORK_VERBS_AFTER: &[(&str, &[&str])] = &[
    ("dolgozom", &["nál", "nél"]),
    ("dolgozik", &["nál", "nél"]),
    ("dolgozott", &["nál", "nél"]),
    ("dolgoztam", &["nál", "nél"]),
    ("dolgozunk", &["nál", "nél"]),
    ("çalışıyorum", TURKISH_LOCATIVES),
    ("çalışıyor", TURKISH_LOCATIVES),
    ("çalışıyordu", TURKISH_LOCATIVES),
    ("çalıştım", TURKISH_LOCATIVES),
    ("çalışmaktayım", TURKISH_LOCATIVES),
];

/// Phrases that say what someone works as, then the job ("works as a nurse", "jobbar som
/// brandman", "pracuję jako kierowca"), with the language whose rule reads the job: in English
/// the job must be a known job noun ("works as a proxy" is about software); in the other
/// languages these verbs are said of people, and any word but a few adverbs is the job.
const WORK_AS: &[(&str, &str)] = &[
    ("work as", "en"),
    ("works as", "en"),
    ("working as", "en"),
    ("worked as", "en"),
    ("employed as", "en"),
    ("job as", "en"),
    ("career as", "en"),
    ("living as", "en"),
    ("arbeite als", "de"),
    ("arbeitet als", "de"),
    ("arbeiten als", "de"),
    ("arbeitete als", "de"),
    ("tätig als", "de"),
    ("beschäftigt als", "de"),
    ("angestellt als", "de"),
    ("travaille comme", "fr"),
    ("travailles comme", "fr"),
    ("travaillait comme", "fr"),
    ("travaillé comme", "fr"),
    ("trabajo como", "es"),
    ("trabaja como", "es"),
    ("trabajaba como", "es"),
    ("trabajé como", "es"),
    ("lavoro come", "it"),
    ("lavora come", "it"),
    ("lavoravo come", "it"),
    ("lavorava come", "it"),
    ("trabalho como", "pt"),
    ("trabalha como", "pt"),
    ("trabalhava como", "pt"),
    ("atuo como", "pt"),
    ("werk als", "nl"),
    ("werkt als", "nl"),
    ("werkte als", "nl"),
    ("werkzaam als", "nl"),
    ("jobbar som", "sv"),
    ("jobbade som", "sv"),
    ("arbetar som", "sv"),
    ("arbetade som", "sv"),
    ("arbejder som", "da"),
    ("arbejdede som", "da"),
    ("jobber som", "no"),
    ("jobbet som", "no"),
    ("arbeider som", "no"),
    ("arbeidet som", "no"),
    ("pracuję jako", "pl"),
    ("pracuje jako", "pl"),
    ("pracowałem jako", "pl"),
    ("pracowałam jako", "pl"),
    ("pracuji jako", "cs"),
    ("pracuju jako", "cs"),
    ("pracoval jako", "cs"),
    ("pracovala jako", "cs"),
    ("pracujem ako", "sk"),
];

/// Articles skipped before the job ("as a nurse", "som en", "als een").
const WORK_AS_ARTICLES: &[&str] = &[
    "a", "an", "ein", "eine", "un", "une", "una", "uno", "um", "uma", "een", "en", "ett", "et",
];

/// Words after a work-as phrase that are no job: "arbetar som vanligt" (as usual), "werkt
/// als een trein" (works like a charm), "works as expected".
const WORK_AS_NOT: &[&str] = &[
    "vanligt",
    "vanlig",
    "normalt",
    "vanleg",
    "sædvanlig",
    "vanligvis",
    "gewoon",
    "normaal",
    "trein",
    "zonnetje",
    "immer",
    "gewohnt",
    "üblich",
    "d'habitude",
    "toujours",
    "siempre",
    "sempre",
    "zawsze",
    "vždy",
    "usual",
    "expected",
    "intended",
    "designed",
    "before",
    "always",
    "normal",
    "normally",
    "habitualmente",
    "di",
    "de",
    "del",
];

/// English job nouns that [`OCCUPATIONS`] leaves out because they also name things ("a
/// driver for the board"): after "works as a" they are jobs.
const WORK_AS_EN: &[&str] = &[
    "accountant",
    "administrator",
    "agent",
    "analyst",
    "artist",
    "assistant",
    "buyer",
    "chef",
    "consultant",
    "controller",
    "designer",
    "developer",
    "director",
    "driver",
    "editor",
    "engineer",
    "inspector",
    "manager",
    "model",
    "officer",
    "pilot",
    "planner",
    "producer",
    "programmer",
    "scientist",
    "secretary",
    "specialist",
    "technician",
    "trader",
    "writer",
    "adviser",
    "advisor",
    "guide",
    "surveyor",
    "paramedic",
    "midwife",
    "doctor",
    "physician",
    "surgeon",
    "dentist",
    "lawyer",
    "attorney",
    "solicitor",
    "police",
    "policeman",
    "policewoman",
    "firefighter",
    "soldier",
    "carer",
    "caregiver",
];

/// Words after the job that name its employer next ("tannlege på Vestbyen Klinikk",
/// "nurse at Quarry Lane Care"); words of place ("in", "i", "w") are left out, since a city follows them.
const WORK_AS_LINKS: &[&str] = &[
    "at", "for", "with", "bei", "für", "chez", "pour", "para", "presso", "per", "bij", "voor",
    "på", "hos", "för", "dla", "pro", "u",
];

/// The locative endings of a Turkish proper noun, after either apostrophe.
const TURKISH_LOCATIVES: &[&str] = &[
    "'da", "'de", "'ta", "'te", "'nda", "'nde", "’da", "’de", "’ta", "’te", "’nda", "’nde",
];

/// Phrases before an organisation name in apposition that say it is the person's employer:
/// "Harbor Freight (my old employer)", "Acme, my former employer".
const EMPLOYER_APPOSITIONS: &[&str] = &[
    "(my employer",
    "(my old employer",
    "(my former employer",
    "(my previous employer",
    "(my current employer",
    "(my ex-employer",
    "(former employer",
    "(ex-employer",
    ", my employer",
    ", my old employer",
    ", my former employer",
    ", my previous employer",
    ", my current employer",
    "(mein arbeitgeber",
    "(mein ehemaliger arbeitgeber",
    "(mein früherer arbeitgeber",
    ", mein arbeitgeber",
    "(mon employeur",
    "(mon ancien employeur",
    ", mon employeur",
    ", mon ancien employeur",
    "(mi empleador",
    "(mi antiguo empleador",
    "(mi empresa",
    ", mi empleador",
    "(il mio datore di lavoro",
    ", il mio datore di lavoro",
    "(mijn werkgever",
    "(mijn oude werkgever",
    ", mijn werkgever",
    "(min arbetsgivare",
    "(min arbejdsgiver",
    "(min arbeidsgiver",
    "(mój pracodawca",
    "(můj zaměstnavatel",
];

/// How many of the first `WORK_PHRASES` say a time spent somewhere, and need a count before
/// them ("3 years at", "a year at").
const TENURE_PHRASES: usize = 3;

/// Whether the word before `at` is a count (digits, "10+", a number word) said of oneself:
/// the count opens a clause ("income $38k, 3 years at …") or the sentence has a first-person
/// word ("I spent 3 years at …"), not "Federer after 20 years at Wimbledon".
fn counted(text: &str, at: usize) -> bool {
    // The sentence is looked at up to 200 bytes back (linear over many matches).
    let from = (at.saturating_sub(200)..=at)
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(at);
    let before = text.get(from..at).unwrap_or("").trim_end();
    let (head, word) = before
        .rsplit_once(char::is_whitespace)
        .unwrap_or(("", before));
    let word = word.trim_end_matches('+');
    let count = (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
        || [
            "a", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "fifteen", "twenty", "few", "several",
        ]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w));
    if !count {
        return false;
    }
    let head = head.trim_end();
    let sentence = head
        .rsplit(['.', '!', '?', '\n', ';', ',', '-', '(', '–', '—'])
        .next()
        .unwrap_or("");
    let opens_clause =
        head.is_empty() || head.ends_with([',', ';', ':', '-', '(', '–', '—', '.', '\n']);
    let first_person = sentence.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
        ["i", "i'm", "i've", "i'd", "my", "me", "we", "we've", "our"]
            .iter()
            .any(|x| w.eq_ignore_ascii_case(x))
    });
    opens_clause || first_person
}

/// Phrases after which an organisation name is someone's employer or school. The first
/// `TENURE_PHRASES` need a count before them.
const WORK_PHRASES: &[&str] = &[
    "years at",
    "year at",
    "months at",
    "pay stubs from",
    "paystubs from",
    "pay slips from",
    "payslips from",
    "w-2 from",
    "w2 from",
    "my employer",
    "my old employer",
    "my former employer",
    "my previous employer",
    "my current employer",
    "my new employer",
    "work at",
    "work for",
    "works at",
    "works for",
    "working at",
    "working for",
    "worked at",
    "worked for",
    "employed at",
    "employed by",
    "employee at",
    "employee of",
    "hired at",
    "hired by",
    "job at",
    "position at",
    "role at",
    "intern at",
    "interning at",
    "laid off from",
    "laid off by",
    "fired from",
    "let go from",
    "quit my job at",
    "resigned from",
    "studies at",
    "studying at",
    "studied at",
    "study at",
    "student at",
    "enrolled at",
    "graduate of",
    "engineer at",
    "engineer for",
    "engineer with",
    "developer at",
    "developer for",
    "developer with",
    "nurse at",
    "nurse for",
    "nurse with",
    "teacher at",
    "teacher for",
    "teacher with",
    "manager at",
    "manager for",
    "manager with",
    "analyst at",
    "analyst for",
    "analyst with",
    "consultant at",
    "consultant for",
    "consultant with",
    "accountant at",
    "accountant for",
    "accountant with",
    "lawyer at",
    "lawyer for",
    "lawyer with",
    "designer at",
    "designer for",
    "designer with",
    "technician at",
    "technician for",
    "technician with",
    "driver at",
    "driver for",
    "driver with",
    "cashier at",
    "cashier for",
    "cashier with",
    "clerk at",
    "clerk for",
    "clerk with",
    "scientist at",
    "scientist for",
    "scientist with",
    "researcher at",
    "researcher for",
    "researcher with",
    "director at",
    "director for",
    "director with",
    "assistant at",
    "assistant for",
    "assistant with",
    "officer at",
    "officer for",
    "officer with",
    "specialist at",
    "specialist for",
    "specialist with",
    "professor at",
    "professor for",
    "professor with",
    "lecturer at",
    "lecturer for",
    "lecturer with",
    "pharmacist at",
    "pharmacist for",
    "pharmacist with",
    "travaille chez",
    "travaille pour",
    "travailles chez",
    "travailles pour",
    "travaillons chez",
    "travaillons pour",
    "travaillez chez",
    "travaillez pour",
    "travaillent chez",
    "travaillent pour",
    "travaillait chez",
    "travaillait pour",
    "travaillé chez",
    "travaillé pour",
    "ingénieur chez",
    "ingénieure chez",
    "salarié chez",
    "salariée chez",
    "employé chez",
    "employée chez",
    "cadre chez",
    "stagiaire chez",
    "développeur chez",
    "développeuse chez",
    "infirmier chez",
    "infirmière chez",
    "professeur chez",
    "professeure chez",
    "technicien chez",
    "technicienne chez",
    "comptable chez",
    "consultant chez",
    "consultante chez",
    "licencié de",
    "licenciée de",
    "licencié par",
    "licenciée par",
    "étudiant à",
    "étudiante à",
    "étudiant en",
    "étudiante en",
    "arbeite bei",
    "arbeite für",
    "arbeitet bei",
    "arbeitet für",
    "arbeiten bei",
    "arbeiten für",
    "arbeitete bei",
    "arbeitete für",
    "beschäftigt bei",
    "angestellt bei",
    "tätig bei",
    "gekündigt von",
    "studiert an der",
    "studiere an der",
    "ingenieur bei",
    "ingenieurin bei",
    "entwickler bei",
    "entwicklerin bei",
    "mitarbeiter bei",
    "mitarbeiterin bei",
    "werkstudent bei",
    "werkstudentin bei",
    "praktikant bei",
    "praktikantin bei",
    "trabajo en",
    "trabajo para",
    "trabaja en",
    "trabaja para",
    "trabajas en",
    "trabajas para",
    "trabajamos en",
    "trabajamos para",
    "trabajan en",
    "trabajan para",
    "trabajaba en",
    "trabajaba para",
    "empleado de",
    "empleada de",
    "despedido de",
    "despedida de",
    "estudio en",
    "estudia en",
    "lavoro presso",
    "lavoro per",
    "lavoro da",
    "lavoro alla",
    "lavoro al",
    "lavora presso",
    "lavora per",
    "lavora da",
    "lavora alla",
    "lavora al",
    "lavori presso",
    "lavori per",
    "lavori da",
    "lavori alla",
    "lavori al",
    "lavorava presso",
    "lavorava per",
    "lavorava da",
    "lavorava alla",
    "lavorava al",
    "dipendente di",
    "dipendente della",
    "dipendente del",
    "licenziato da",
    "licenziata da",
    "licenziato dalla",
    "licenziata dalla",
    "trabalho na",
    "trabalho no",
    "trabalho em",
    "trabalho para",
    "trabalha na",
    "trabalha no",
    "trabalha em",
    "trabalha para",
    "trabalhava na",
    "trabalhava no",
    "trabalhava em",
    "trabalhava para",
    "werk bij",
    "werk voor",
    "werkt bij",
    "werkt voor",
    "jobbar på",
    "jobbar hos",
    "jobbar för",
    "arbetar på",
    "arbetar hos",
    "arbetar för",
    "arbejder hos",
    "arbejder på",
    "arbejder for",
    "jobber hos",
    "jobber på",
    "jobber i",
    "jobber for",
    "arbeider hos",
    "arbeider på",
    "arbeider i",
    "arbeider for",
    "pracuję w",
    "pracuję dla",
    "pracuję u",
    "pracuje w",
    "pracuje dla",
    "pracuje u",
    "pracuji v",
    "pracuji ve",
    "pracuji u",
    "pracuji pro",
    "pracuje v",
    "pracuje ve",
    "pracuje pro",
    "shifts at",
    "shift at",
    "my manager at",
    "my boss at",
    "mein arbeitgeber",
    "meinem arbeitgeber",
    "meines arbeitgebers",
    "mon employeur",
    "mi empleador",
    "mi empresa",
    "il mio datore di lavoro",
    "meu empregador",
    "minha entidade patronal",
    "funcionária da",
    "funcionário da",
    "funcionária do",
    "funcionário do",
    "mijn werkgever",
    "mój pracodawca",
    "mojego pracodawcy",
    "můj zaměstnavatel",
    "min arbetsgivare",
    "min arbejdsgiver",
    "min arbeidsgiver",
    "jobber offshore for",
    // French contracts: "en CDI chez Maison Berlaud".
    "en cdi chez",
    "en cdd chez",
    "en stage chez",
    "en alternance chez",
    "en intérim chez",
    // Swedish, Danish, Norwegian "employed at".
    "anställd på",
    "anställd hos",
    "ansat hos",
    "ansat i",
    "ansat på",
    "ansatt hos",
    "ansatt i",
    "ansatt på",
    // Slovak.
    "pracujem v",
    "pracujem vo",
    "pracujem pre",
    "pracujem u",
    // Finnish: the name carries its case ending ("työskentelen Nokialla").
    "työskentelen",
    "työskentelee",
    "työskentelin",
    "työskenteli",
    "olen töissä",
    "on töissä",
    // Romanian.
    "lucrez la",
    "lucrează la",
    "lucra la",
    "lucram la",
    "lucrez pentru",
    "lucrează pentru",
    "angajat la",
    "angajată la",
    "angajat al",
    "angajată a",
    "concediat de la",
    "concediată de la",
    // Russian and Ukrainian (the name is capitalised as in any language with cases).
    "работаю в",
    "работаю на",
    "работает в",
    "работает на",
    "работал в",
    "работала в",
    "работал на",
    "работала на",
    "уволили из",
    "працюю в",
    "працюю у",
    "працюю на",
    "працює в",
    "працює у",
    "працює на",
    "працював у",
    "працював в",
    "працювала у",
    "працювала в",
    "звільнили з",
    // The same opening a sentence (the phrase search folds only ASCII letters).
    "Работаю в",
    "Работаю на",
    "Працюю в",
    "Працюю у",
    "Працюю на",
    // Greek.
    "δουλεύω στην",
    "δουλεύω στο",
    "δουλεύω στη",
    "δουλεύει στην",
    "δουλεύει στο",
    "δουλεύει στη",
    "εργάζομαι στην",
    "εργάζομαι στο",
    "εργάζομαι στη",
    "εργάζεται στην",
    "εργάζεται στο",
    "εργάζεται στη",
    "Δουλεύω στην",
    "Δουλεύω στο",
    "Δουλεύω στη",
    "Εργάζομαι στην",
    "Εργάζομαι στο",
    "Εργάζομαι στη",
    // Vietnamese and Indonesian.
    "làm việc tại",
    "làm việc ở",
    "làm việc cho",
    "làm ở",
    "làm tại",
    "bekerja di",
    "bekerja untuk",
    "kerja di",
    "karyawan di",
    "karyawan",
];

/// Head nouns of job titles by language (`data/lexicon/occupations.tsv`, generated from the
/// job lists Faker ships: see `data/lexicon/build/occupations.py`).
const OCCUPATIONS: &str = include_str!("../../../data/lexicon/occupations.tsv");

/// Words that make a German capitalised run a company's name: legal forms and the heads of
/// company names.
const GERMAN_COMPANY_WORDS: &[&str] = &[
    "GmbH",
    "gGmbH",
    "mbH",
    "AG",
    "KG",
    "KGaA",
    "OHG",
    "SE",
    "e.V.",
    "eG",
    "Gruppe",
    "Group",
    "Holding",
    "Klinik",
    "Kliniken",
    "Klinikum",
    "Krankenhaus",
    "Werke",
    "Stadtwerke",
    "Bank",
    "Sparkasse",
    "Versicherung",
    "Verlag",
    "Logistik",
    "Pflegedienst",
    "Pflege",
    "Service",
    "Services",
    "Bau",
    "Technik",
    "Systems",
    "Solutions",
];

/// What follows a job noun before the employer's name, by language: "associate at X",
/// "Pflegerin bei X", "infirmière chez X", "sygeplejerske på X".
const OCCUPATION_LINKS: &[(&str, &[&str])] = &[
    ("en", &["at", "for", "with"]),
    ("de", &["bei"]),
    ("fr", &["chez"]),
    ("es", &["en", "para"]),
    ("pt", &["na", "no", "para"]),
    ("da", &["hos", "på"]),
];

/// The job nouns of [`OCCUPATIONS`] as (language, noun), in the table's order (sorted, so a
/// noun is found by binary search; a unit test checks the order).
fn occupations() -> Vec<(&'static str, &'static str)> {
    OCCUPATIONS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .collect()
}

/// Every link word of [`OCCUPATION_LINKS`], between spaces (" at ", " bei ").
fn link_patterns() -> Vec<String> {
    let mut out: Vec<String> = OCCUPATION_LINKS
        .iter()
        .flat_map(|(_, links)| links.iter().map(|l| format!(" {l} ")))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Finds sex-and-age pairs, gender fields and employers.
#[derive(Debug)]
pub(super) struct Demographic {
    sex_age: Regex,
    age_sex: Regex,
    compact: Regex,
    params: Regex,
    kanji_age: Regex,
    /// The work phrases, then the employer appositions.
    work: AhoCorasick,
    /// What the scanned text must hold to contain a work phrase or apposition.
    work_need: Option<WordsNeed>,
    links: AhoCorasick,
    /// What the scanned text must hold to contain a link.
    links_need: Option<WordsNeed>,
    occupations: Vec<(&'static str, &'static str)>,
}

impl Demographic {
    pub(super) fn new() -> Result<Self, Error> {
        Ok(Demographic {
            // "f, 38", "M/45", "female, 52", "weiblich, 61 J."
            sex_age: regex(
                "demographic",
                &format!(
                    r"(?i:(?-u:\b)([MFW]|{SEX_WORDS}))\s*[,/]\s*(?i:age\s*)?(\d{{1,3}})(?:\s*(?:J\.|y/?o|yrs?|years?(?:\s+old)?|ans|anni|años|anos|Jahre|år|jaar|lat|let))?"
                ),
            )?,
            // "age 52, female", "38 years, male", "61 J., männlich"
            age_sex: regex(
                "demographic",
                &format!(
                    r"(?i:(?-u:\b)(?:aged?\s*:?\s*\d{{1,3}}|\d{{1,3}}\s*(?:J\.|y/?o|yrs?|years?(?:\s+old)?|ans|anni|años|anos|Jahre(?:\s+alt)?|år|jaar|lat|let)))\s*[,;/]\s*(?i:({SEX_WORDS}))(?-u:\b)"
                ),
            )?,
            // "38F" opening a post, in brackets or after "I'm"
            compact: regex(
                "demographic",
                r"(?:^|\(|\[|(?i:i'?m|i am|me|pt|patient)\s+(?:a\s+)?)\s*(\d{2})\s?([MF])(?:\)|\]|,|\s|$)",
            )?,
            // `?age=19`, `&bairro=Ibura`: an age or a neighbourhood as a URL or form parameter.
            params: regex(
                "demographic",
                r"(?i)(?:^|[?&;])(?:(age|idade|edad|alter|eta|età|leeftijd|alder|ålder|wiek|vek|věk)=(\d{1,3})|(?:neighbou?rhood|bairro|barrio|quartiere|quartier|stadtteil|wijk|bydel|stadsdel|dzielnica|ctvrt|čtvrť)=([^&#;\s]{2,60}))",
            )?,
            // "34歳": an age in Japanese.
            kanji_age: regex("demographic", r"(\d{1,3})\s?[歳才]")?,
            work: AhoCorasickBuilder::new()
                .kind(Some(AhoCorasickKind::DFA))
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostLongest)
                .build(
                    WORK_PHRASES
                        .iter()
                        .chain(EMPLOYER_APPOSITIONS)
                        .chain(WORK_VERBS_AFTER.iter().map(|(v, _)| v))
                        .chain(WORK_AS.iter().map(|(v, _)| v)),
                )
                .map_err(|e| Error::new(ErrorKind::Build, format!("employer phrases: {e}")))?,
            work_need: WordsNeed::of(
                &WORK_PHRASES
                    .iter()
                    .chain(EMPLOYER_APPOSITIONS)
                    .chain(WORK_VERBS_AFTER.iter().map(|(v, _)| v))
                    .chain(WORK_AS.iter().map(|(v, _)| v))
                    .collect::<Vec<_>>(),
            ),
            links: AhoCorasickBuilder::new()
                .kind(Some(AhoCorasickKind::DFA))
                .ascii_case_insensitive(true)
                .build(link_patterns())
                .map_err(|e| Error::new(ErrorKind::Build, format!("employer links: {e}")))?,
            links_need: WordsNeed::of(&link_patterns()),
            occupations: occupations(),
        })
    }

    fn gender_field(&self, text: &str, class: KeyClass, out: &mut Vec<Finding>) -> bool {
        let value = text.trim();
        if class != KeyClass::Gender
            || value.is_empty()
            || value.chars().count() > 24
            || value.bytes().any(|b| b.is_ascii_digit())
        {
            return false;
        }
        let start = text.len() - text.trim_start().len();
        out.push(Finding::new(
            start..start + value.len(),
            PsdKind::Gender,
            0.85,
            "demographic",
        ));
        true
    }

    /// An age band or a person's own language in a field named for it.
    fn quasi_field(text: &str, class: KeyClass, out: &mut Vec<Finding>) -> bool {
        if !matches!(
            class,
            KeyClass::AgeGroup | KeyClass::OwnLanguage | KeyClass::Marital
        ) {
            return false;
        }
        let value = text.trim();
        if value.is_empty() || value.chars().count() > 32 {
            return false;
        }
        let kind = if class == KeyClass::AgeGroup {
            PsdKind::Age
        } else if class == KeyClass::OwnLanguage && !value.bytes().any(|b| b.is_ascii_digit()) {
            PsdKind::Preference
        } else if class == KeyClass::Marital && value.chars().any(char::is_alphabetic) {
            PsdKind::Family
        } else {
            return false;
        };
        let start = text.len() - text.trim_start().len();
        out.push(Finding::new(
            start..start + value.len(),
            kind,
            0.7,
            "demographic",
        ));
        true
    }

    fn pairs(&self, text: &str, out: &mut Vec<Finding>) {
        let b = text.as_bytes();
        // "f, 38": a separator then a number; "52, female": a number then a separator;
        // "38F": two digits then M or F.
        let sep_then_digit = b.iter().enumerate().any(|(i, &c)| {
            matches!(c, b',' | b'/')
                && b.get(i + 1..)
                    .and_then(|r| r.iter().find(|&&x| x != b' '))
                    .is_some_and(u8::is_ascii_digit)
        });
        let digit_then_sep = b.iter().enumerate().any(|(i, c)| {
            c.is_ascii_digit()
                && !b.get(i + 1).is_some_and(u8::is_ascii_digit)
                && b.get(i + 1..(i + 15).min(b.len()))
                    .is_some_and(|r| r.iter().any(|x| matches!(x, b',' | b';' | b'/')))
        });
        let compact = b.windows(3).any(|w| {
            w.first().is_some_and(u8::is_ascii_digit)
                && w.get(1).is_some_and(u8::is_ascii_digit)
                && matches!(w.get(2), Some(b'M' | b'F' | b' '))
        });
        if !sep_then_digit && !digit_then_sep && !compact {
            return;
        }
        // Only the patterns the text's shape allows are run (and compiled).
        for c in sep_then_digit
            .then(|| self.sex_age.captures_iter(text))
            .into_iter()
            .flatten()
        {
            let (Some(all), Some(sex), Some(age)) = (c.get(0), c.get(1), c.get(2)) else {
                continue;
            };
            // Not a seat, a size or a decimal: "Row F, 38.5", "F/38/2".
            let single = sex.as_str().len() == 1;
            let lone_letter = !char_before(text, sex.start()).is_some_and(char::is_alphanumeric);
            if !age_ok(age.as_str())
                || char_at(text, all.end()).is_some_and(|c| c.is_ascii_digit())
                || super::context::number_continues(text, age.end(), &['.', ',', '/'])
                || (single && !lone_letter)
                || (single
                    && !sex.as_str().bytes().all(|b| b.is_ascii_uppercase())
                    && !text.trim_start().starts_with(sex.as_str()))
            {
                continue;
            }
            out.push(Finding::new(
                sex.range(),
                PsdKind::Gender,
                0.8,
                "demographic",
            ));
            out.push(Finding::new(
                age.start()..all.end(),
                PsdKind::Age,
                0.8,
                "demographic",
            ));
        }
        for c in digit_then_sep
            .then(|| self.age_sex.captures_iter(text))
            .into_iter()
            .flatten()
        {
            if let Some(sex) = c.get(1) {
                out.push(Finding::new(
                    sex.range(),
                    PsdKind::Gender,
                    0.8,
                    "demographic",
                ));
            }
        }
        for c in compact
            .then(|| self.compact.captures_iter(text))
            .into_iter()
            .flatten()
        {
            let (Some(age), Some(sex)) = (c.get(1), c.get(2)) else {
                continue;
            };
            if age_ok(age.as_str()) && char_at(text, sex.end()).is_none_or(|c| c != '°') {
                out.push(Finding::new(
                    age.start()..sex.end(),
                    PsdKind::Age,
                    0.75,
                    "demographic",
                ));
            }
        }
    }

    /// Ages and neighbourhoods passed as parameters of a URL or form.
    fn parameters(&self, text: &str, out: &mut Vec<Finding>) {
        for c in self.params.captures_iter(text) {
            if let Some(age) = c.get(2) {
                if age_ok(age.as_str()) {
                    out.push(Finding::new(age.range(), PsdKind::Age, 0.7, "demographic"));
                }
            } else if let Some(place) = c.get(3) {
                out.push(Finding::new(
                    place.range(),
                    PsdKind::Place,
                    0.7,
                    "demographic",
                ));
            }
        }
    }

    /// The job after a work-as phrase that ends at `end` and starts a word ("works as a
    /// nurse"), and the employer after it ("jobber som tannlege på Vestbyen Klinikk").
    fn work_as(&self, text: &str, end: usize, lang: &str, upper: bool, out: &mut Vec<Finding>) {
        let space_at = |i: usize| text.get(i..).is_some_and(|r| r.starts_with(' '));
        if !space_at(end) {
            return;
        }
        let mut at = end + 1;
        let word_at = |at: usize| {
            let r = text.get(at..).unwrap_or("");
            let len = r
                .find(|c: char| !(c.is_alphabetic() || c == '-' || c == '\''))
                .unwrap_or(r.len());
            &r[..len]
        };
        let mut word = word_at(at);
        if WORK_AS_ARTICLES
            .iter()
            .any(|a| word.eq_ignore_ascii_case(a))
            && space_at(at + word.len())
        {
            at += word.len() + 1;
            word = word_at(at);
        }
        let lower = word.to_lowercase();
        if word.chars().count() < 3 || WORK_AS_NOT.contains(&lower.as_str()) {
            return;
        }
        let known = match lang {
            "en" => {
                WORK_AS_EN.contains(&lower.as_str())
                    || self
                        .occupations
                        .binary_search_by(|(l, o)| (*l, *o).cmp(&("en", lower.as_str())))
                        .is_ok()
            }
            // German nouns are capitalised: "arbeitet als kleines Team" is no job.
            "de" => word.chars().next().is_some_and(char::is_uppercase),
            _ => true,
        };
        if !known {
            return;
        }
        out.push(Finding::new(
            at..at + word.len(),
            PsdKind::Occupation,
            0.75,
            "demographic",
        ));
        // The employer after a link word: "at Quarry Lane Care", "på Vestbyen Klinikk".
        let after = at + word.len();
        if !upper || !space_at(after) {
            return;
        }
        let link = word_at(after + 1);
        if WORK_AS_LINKS.iter().any(|l| link.eq_ignore_ascii_case(l))
            && space_at(after + 1 + link.len())
            && let Some(org) = employer_after(text, after + 2 + link.len(), link == "bei")
        {
            out.push(Finding::new(org, PsdKind::Occupation, 0.75, "employer"));
        }
    }

    fn employers(&self, text: &str, out: &mut Vec<Finding>) {
        // An employer is named in capitalised words (`employer_before`, `employer_after`): a
        // text without an upper-case character names none, though it may say a job.
        let upper = may_hold_upper(text);
        // The hand-written verbs and roles ("works at", "ingénieur chez"). Where each found
        // phrase ends, in text order, so the job-noun pass below does not find it again.
        let mut phrase_ends: Vec<usize> = Vec::new();
        let may_hold = |need: &Option<WordsNeed>| need.as_ref().is_none_or(|n| n.may_be_in(text));
        let work = may_hold(&self.work_need).then(|| self.work.find_iter(text));
        for m in work.into_iter().flatten() {
            let verbs_from = WORK_PHRASES.len() + EMPLOYER_APPOSITIONS.len();
            let as_from = verbs_from + WORK_VERBS_AFTER.len();
            let at_word = !char_before(text, m.start()).is_some_and(char::is_alphanumeric);
            if let Some((_, lang)) = m
                .pattern()
                .as_usize()
                .checked_sub(as_from)
                .and_then(|i| WORK_AS.get(i))
            {
                if at_word {
                    self.work_as(text, m.end(), lang, upper, out);
                }
                continue;
            }
            if !upper {
                continue;
            }
            if let Some((_, endings)) = m
                .pattern()
                .as_usize()
                .checked_sub(verbs_from)
                .and_then(|i| WORK_VERBS_AFTER.get(i))
            {
                // The verb stands as a word, right after the name with its case ending.
                let ends_word = !char_at(text, m.end()).is_some_and(char::is_alphanumeric);
                if ends_word
                    && let Some(org) =
                        employer_before(text, m.start()).map(|o| drop_subject(text, o))
                    && text
                        .get(org.clone())
                        .is_some_and(|o| endings.iter().any(|e| o.ends_with(e)))
                {
                    out.push(Finding::new(org, PsdKind::Occupation, 0.75, "employer"));
                }
                continue;
            }
            if m.pattern().as_usize() >= WORK_PHRASES.len() {
                // The apposition closes right after ("(my old employer)", ", my employer,").
                let closes =
                    char_at(text, m.end()).is_none_or(|c| matches!(c, ')' | ',' | '.' | ';' | ':'));
                if closes && let Some(org) = employer_before(text, m.start()) {
                    out.push(Finding::new(org, PsdKind::Occupation, 0.75, "employer"));
                }
                continue;
            }
            let rest = text.get(m.end()..).unwrap_or("");
            // "my current employer, Quillon Labs": a comma or a colon after a phrase that
            // ends in the word for employer.
            let gap = if rest.starts_with(' ') {
                1
            } else if (rest.starts_with(", ") || rest.starts_with(": "))
                && text.get(m.start()..m.end()).is_some_and(names_employer)
            {
                2
            } else {
                continue;
            };
            if !at_word || (m.pattern().as_usize() < TENURE_PHRASES && !counted(text, m.start())) {
                continue;
            }
            phrase_ends.push(m.end() + gap);
            if let Some(org) = employer_after(text, m.end() + gap, false) {
                out.push(Finding::new(org, PsdKind::Occupation, 0.75, "employer"));
            }
        }
        if !upper {
            return;
        }
        // A job noun of the table, then its language's link ("associate at", "Pflegerin
        // bei"): the link is found first, the noun before it looked up.
        let links = may_hold(&self.links_need).then(|| self.links.find_iter(text));
        for m in links.into_iter().flatten() {
            let link = text
                .get(m.start() + 1..m.end() - 1)
                .unwrap_or("")
                .to_lowercase();
            let head = text.get(..m.start()).unwrap_or("");
            let noun_start = head
                .char_indices()
                .rev()
                .take_while(|(_, c)| c.is_alphabetic() || *c == '-')
                .last()
                .map_or(head.len(), |(i, _)| i);
            let noun = head.get(noun_start..).unwrap_or("").to_lowercase();
            if noun.is_empty() || phrase_ends.binary_search(&m.end()).is_ok() {
                continue;
            }
            // A compound's head is its last part ("SOSU-assistent", "Büro-Assistentin").
            let head_noun = noun.rsplit('-').next().unwrap_or(&noun);
            let known = OCCUPATION_LINKS
                .iter()
                .filter(|(_, links)| links.contains(&link.as_str()))
                .any(|(lang, _)| {
                    [noun.as_str(), head_noun].iter().any(|n| {
                        self.occupations
                            .binary_search_by(|(l, o)| (*l, *o).cmp(&(*lang, *n)))
                            .is_ok()
                    })
                });
            if !known {
                continue;
            }
            if let Some(org) = employer_after(text, m.end(), link == "bei") {
                out.push(Finding::new(org, PsdKind::Occupation, 0.75, "employer"));
            }
        }
    }
}

/// The employer's capitalised name from byte `at` (after an article), unless it reads as a
/// product, a platform or a sentence opener. After a generated job noun and "bei"
/// (`german_bei`) the name needs a company word: German nouns after "bei" are as often a
/// circumstance ("bei Bedarf Anruf").
/// The capitalised words (up to five) that end right before `end` (one space allowed), as an
/// employer named before an apposition.
fn employer_before(text: &str, end: usize) -> Option<std::ops::Range<usize>> {
    let head = text.get(..end)?.trim_end_matches(' ');
    let mut start = head.len();
    let mut words = 0;
    for w in head.rsplit(' ') {
        let capitalised = w.chars().next().is_some_and(char::is_uppercase);
        if !capitalised || words == 5 {
            break;
        }
        start -= w.len();
        words += 1;
        if start == 0 {
            break;
        }
        start -= 1;
    }
    if words == 0 {
        return None;
    }
    let mut start = if head.get(start..).is_some_and(|r| r.starts_with(' ')) {
        start + 1
    } else {
        start
    };
    // English and Hungarian articles ("a Telekomnál dolgozom").
    for article in ["The ", "the ", "Az ", "A "] {
        if head.get(start..).is_some_and(|r| r.starts_with(article)) {
            start += article.len();
            break;
        }
    }
    let org = head.get(start..)?;
    let first = org.split(' ').next().unwrap_or("");
    if org.len() < 2 || is_not_an_org(first) {
        return None;
    }
    Some(start..head.len())
}

/// `org` without a first word that is the sentence's subject rather than part of the name:
/// a pronoun or a kin word with the Turkish first-person possessive ("Eşim Garanti
/// Bankası'nda çalışıyor", my wife works at Garanti Bank; "Kardeşim", "Annem").
fn drop_subject(text: &str, org: std::ops::Range<usize>) -> std::ops::Range<usize> {
    const PRONOUNS: &[&str] = &["Ben", "Biz", "O", "Onlar", "Én", "Mi", "Ő"];
    let Some((first, rest)) = text.get(org.clone()).and_then(|o| o.split_once(' ')) else {
        return org;
    };
    let possessive = first.chars().count() >= 3
        && ["ım", "im", "um", "üm", "am", "em"]
            .iter()
            .any(|e| first.ends_with(e));
    if (possessive || PRONOUNS.contains(&first)) && !rest.is_empty() {
        org.end - rest.len()..org.end
    } else {
        org
    }
}

fn employer_after(text: &str, mut at: usize, german_bei: bool) -> Option<std::ops::Range<usize>> {
    // "my employer (Fairview School District)": the name in brackets.
    if text.get(at..).is_some_and(|r| r.starts_with('(')) {
        at += 1;
    }
    let rest = text.get(at..).unwrap_or("");
    for article in [
        "the ", "The ", "l'", "la ", "le ", "el ", "der ", "die ", "dem ",
    ] {
        if rest.starts_with(article) {
            at += article.len();
            break;
        }
    }
    let org = capitalised_run(text, at, 5)?;
    let first = text
        .get(org.clone())
        .and_then(|o| o.split_whitespace().next())
        .unwrap_or("");
    // A model or part number ("driver for the STM32 board") is a product, not an employer:
    // a first word of four or more characters that mixes letters and digits.
    let model = first.len() >= 4
        && first.bytes().any(|b| b.is_ascii_digit())
        && first.bytes().any(|b| b.is_ascii_alphabetic());
    let company = text
        .get(org.clone())
        .is_some_and(|o| o.split(' ').any(|w| GERMAN_COMPANY_WORDS.contains(&w)));
    if org.len() < 2 || model || (german_bei && !company) || is_not_an_org(first) {
        return None;
    }
    Some(org)
}

/// Whether a work phrase ends in the word for employer ("my current employer", "mein
/// Arbeitgeber"), so that a comma may stand before the name it introduces.
fn names_employer(phrase: &str) -> bool {
    let last = phrase.rsplit(' ').next().unwrap_or("").to_lowercase();
    [
        "employer",
        "arbeitgeber",
        "arbeitgebers",
        "employeur",
        "empleador",
        "empresa",
        "lavoro",
        "empregador",
        "patronal",
        "werkgever",
        "pracodawca",
        "pracodawcy",
        "zaměstnavatel",
        "arbetsgivare",
        "arbejdsgiver",
        "arbeidsgiver",
    ]
    .contains(&last.as_str())
}

/// Whether `s` reads as a person's age in years.
fn age_ok(s: &str) -> bool {
    s.parse::<u16>().is_ok_and(|n| (1..=110).contains(&n))
}

/// Capitalised words that start a sentence or a date rather than a name.
fn is_not_an_org(first: &str) -> bool {
    const WORDS: &[&str] = &[
        "I",
        "The",
        "A",
        "An",
        "My",
        "Our",
        "Your",
        "His",
        "Her",
        "Their",
        "This",
        "That",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
        "Home",
        "Windows",
        "Mac",
        "Linux",
        "Android",
        "iOS",
        "Chrome",
        "Firefox",
        "Safari",
        "Excel",
        "Least",
        "Last",
        "Years",
        "Months",
        "Weeks",
        "Days",
        "Yes",
        "No",
        "Ich",
        "Je",
        "Yo",
        "Io",
        "Der",
        "Die",
        "Das",
        "Le",
        "La",
        "Les",
        "El",
    ];
    WORDS.contains(&first)
}

impl crate::classify::shared::Gate for Demographic {}

impl Detector for Demographic {
    fn name(&self) -> &'static str {
        "demographic"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        let class = key_class(field);
        if self.gender_field(text, class, out)
            || Self::quasi_field(text, class, out)
            || text.len() < 6
        {
            return;
        }
        if text.bytes().any(|b| b.is_ascii_digit()) {
            self.pairs(text, out);
            if !text.is_ascii() && (text.contains('歳') || text.contains('才')) {
                for c in self.kanji_age.captures_iter(text) {
                    if let (Some(m), Some(n)) = (c.get(0), c.get(1))
                        && age_ok(n.as_str())
                    {
                        out.push(Finding::new(m.range(), PsdKind::Age, 0.8, "demographic"));
                    }
                }
            }
        }
        if text.contains('=') {
            self.parameters(text, out);
        }
        self.employers(text, out);
    }
}

/// What a field's key names, for the field rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyClass {
    /// No key, or a key of none of the lists.
    Other,
    Gender,
    AgeGroup,
    OwnLanguage,
    /// A marital or family status ("married, two children", "ledig").
    Marital,
}

/// What the field's key names. Every string of an array asks with the same key: the last
/// key's class is kept, per thread, and given again without lower-casing the key.
fn key_class(field: &Field<'_>) -> KeyClass {
    thread_local! {
        static LAST: std::cell::RefCell<(String, KeyClass)> =
            const { std::cell::RefCell::new((String::new(), KeyClass::Other)) };
    }
    let Some(raw) = field.key else {
        return KeyClass::Other;
    };
    if let Some(class) = LAST.with_borrow(|(k, class)| (k == raw).then_some(*class)) {
        return class;
    }
    let class = with_letters_of_key(raw, |key| {
        if GENDER_KEYS.contains(&key) {
            KeyClass::Gender
        } else if AGE_GROUP_KEYS.contains(&key) {
            KeyClass::AgeGroup
        } else if OWN_LANGUAGE_KEYS.contains(&key) {
            KeyClass::OwnLanguage
        } else if MARITAL_KEYS.contains(&key) {
            KeyClass::Marital
        } else {
            KeyClass::Other
        }
    });
    LAST.with_borrow_mut(|last| {
        last.0.clear();
        last.0.push_str(raw);
        last.1 = class;
    });
    class
}

/// `f` of the letters of a field's key in lower case ("Gender_Identity" → "genderidentity").
fn with_letters_of_key<R>(key: &str, f: impl FnOnce(&str) -> R) -> R {
    crate::text::inline::with_lower_alphanumerics(key, false, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(&str, PsdKind)> {
        let d = Demographic::new().unwrap();
        let mut out = Vec::new();
        d.detect(text, &Field::default(), &mut out);
        out.sort_by_key(|f| f.span.start);
        out.iter()
            .map(|f| (&text[f.span.clone()], f.kind))
            .collect()
    }

    const G: PsdKind = PsdKind::Gender;
    const A: PsdKind = PsdKind::Age;
    const O: PsdKind = PsdKind::Occupation;

    #[test]
    fn employers_in_apposition_and_after_tenure_or_pay_stubs() {
        assert_eq!(
            found("my discrimination case against Harbor Freightways (my old employer)."),
            [("Harbor Freightways", O)]
        );
        assert_eq!(
            found("Attached are pay stubs from Norvell Shipping."),
            [("Norvell Shipping", O)]
        );
        assert_eq!(
            found("income $41k, 4 years at Costco warehouse"),
            [("Costco", O)]
        );
        assert_eq!(found("I spent 3 years at Stripe"), [("Stripe", O)]);
        assert_eq!(
            found("please keep it from my employer (Lakeside Freight Co) for now"),
            [("Lakeside Freight Co", O)]
        );
        assert!(found("Federer after 20 years at Wimbledon").is_empty());
        assert!(found("I moved to Berlin (my employer is remote-first)").is_empty());
        assert_eq!(
            found("a letter from Ostrander Mills, my former employer, arrived"),
            [("Ostrander Mills", O)]
        );
    }

    #[test]
    fn jobs_after_work_as_phrases() {
        assert_eq!(
            found("Jeg jobber som tannlege på Vestbyen Klinikk."),
            [("tannlege", O), ("Vestbyen Klinikk", O)]
        );
        assert_eq!(found("ik werk als een loodgieter"), [("loodgieter", O)]);
        assert_eq!(found("Pracuję jako ogrodnik od lat"), [("ogrodnik", O)]);
        assert_eq!(
            found("Ich arbeite als Bäckerin in Kassel"),
            [("Bäckerin", O)]
        );
        assert_eq!(found("i work as a welder in the shipyard"), [("welder", O)]);
        // English needs a job noun; adverbs and idioms are no job.
        assert!(found("the retry loop works as a fallback").is_empty());
        assert!(found("this toggle works as expected").is_empty());
        assert!(found("jag arbetar som vanligt på fredag").is_empty());
        assert!(found("das Skript arbeitet als kleiner Dienst").is_empty());
        // A comma after the word for employer, and a French contract before "chez".
        assert_eq!(
            found("don't call my current employer, Quillon Labs, yet"),
            [("Quillon Labs", O)]
        );
        assert_eq!(
            found("Je suis en CDI chez Maison Berlaud."),
            [("Maison Berlaud", O)]
        );
    }

    #[test]
    fn age_bands_and_own_language_in_fields() {
        let d = Demographic::new().unwrap();
        let field = |key| Field {
            path: "/x",
            key: Some(key),
            description: None,
            dictated: false,
        };
        let mut out = Vec::new();
        d.detect("35-39", &field("Age group"), &mut out);
        d.detect("Tagalog", &field("preferred_language"), &mut out);
        d.detect("Spanish", &field("target_language"), &mut out);
        d.detect("verheiratet, 2 Kinder", &field("Familienstand"), &mut out);
        d.detect("3", &field("marital_status"), &mut out);
        let kinds: Vec<PsdKind> = out.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, [PsdKind::Age, PsdKind::Preference, PsdKind::Family]);
    }

    #[test]
    fn sex_and_age_pairs() {
        assert_eq!(found("Pt: F, 38, smoker"), [("F", G), ("38", A)]);
        assert_eq!(found("f, 38 — nonsmoker"), [("f", G), ("38", A)]);
        assert_eq!(
            found("Patient männlich, 61 J."),
            [("männlich", G), ("61 J.", A)]
        );
        assert_eq!(found("in-network, patient age 52, female"), [("female", G)]);
        assert_eq!(found("38F looking for a running group"), [("38F", A)]);
        assert_eq!(found("I'm 29M, new in town"), [("29M", A)]);
    }

    #[test]
    fn ages_and_neighbourhoods_in_parameters_and_japanese_ages() {
        assert_eq!(
            found("https://jobs.example/search?city=Porto&age=23&district_id=4"),
            [("23", PsdKind::Age)]
        );
        assert_eq!(
            found("https://cursos.example/busca?cidade=Recife&bairro=Casa%20Forte"),
            [("Casa%20Forte", PsdKind::Place)]
        );
        assert_eq!(
            found("初診予約 田中一郎 52歳 相談"),
            [("52歳", PsdKind::Age)]
        );
        // Other parameters, pages and ages of things are not someone's.
        assert!(found("https://a.example/list?page=12&storage=64").is_empty());
        assert!(found("https://a.example/list?agent=12").is_empty());
    }

    /// A key is in one list at most: [`key_class`] gives one class.
    #[test]
    fn the_key_lists_are_disjoint() {
        for k in GENDER_KEYS {
            assert!(
                !AGE_GROUP_KEYS.contains(k) && !OWN_LANGUAGE_KEYS.contains(k),
                "{k}"
            );
        }
        for k in AGE_GROUP_KEYS {
            assert!(!OWN_LANGUAGE_KEYS.contains(k), "{k}");
        }
        for k in MARITAL_KEYS {
            assert!(
                !GENDER_KEYS.contains(k)
                    && !AGE_GROUP_KEYS.contains(k)
                    && !OWN_LANGUAGE_KEYS.contains(k),
                "{k}"
            );
        }
    }

    #[test]
    fn gender_fields() {
        let f = Field {
            path: "/gender",
            key: Some("Geschlecht"),
            description: None,
            dictated: false,
        };
        let d = Demographic::new().unwrap();
        let mut out = Vec::new();
        d.detect(" weiblich ", &f, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].span, 1..9);
    }

    #[test]
    fn the_occupation_table_is_sorted_for_binary_search() {
        let table = super::occupations();
        assert!(table.len() > 1000);
        assert!(table.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn employers_and_schools_by_structure() {
        assert_eq!(
            found("Mein Arbeitgeber Brandl Spedition GmbH zahlt pünktlich"),
            [("Brandl Spedition GmbH", O)]
        );
        assert_eq!(
            found("I work night shifts at the Kessler depot"),
            [("Kessler", O)]
        );
        assert_eq!(
            found("Ik werk bij Vandermolen Logistiek sinds mei"),
            [("Vandermolen Logistiek", O)]
        );
        assert_eq!(
            found("she works at Brightwave Analytics since May"),
            [("Brightwave Analytics", O)]
        );
        assert_eq!(
            found("Il est ingénieur chez Horizon Systèmes à Nantes."),
            [("Horizon Systèmes", O)]
        );
        assert_eq!(
            found("I was laid off from Northwind Aero in March"),
            [("Northwind Aero", O)]
        );
        assert_eq!(
            found("I'm a student at Riverside College."),
            [("Riverside College", O)]
        );
        assert_eq!(
            found("Sie arbeitet bei Lindqvist & Berg GmbH"),
            [("Lindqvist & Berg GmbH", O)]
        );
        assert_eq!(
            found("trabaja en Ferretería Ortiz"),
            [("Ferretería Ortiz", O)]
        );
        // A job noun from the generated table, then its language's link.
        assert_eq!(
            found("he is a warehouse picker at Halvorsen Freight"),
            [("Halvorsen Freight", O)]
        );
        assert_eq!(
            found("Sie ist Altenpflegerin bei Sonnenhof Pflege GmbH."),
            [("Sonnenhof Pflege GmbH", O)]
        );
        assert_eq!(
            found("jeg er sygeplejerske på Nordhavn Klinik"),
            [("Nordhavn Klinik", O)]
        );
        // Languages whose employer carries a case ending, before or after the verb.
        assert_eq!(
            found("Én a Várhegyi Nyomdánál dolgozom hétköznap."),
            [("Várhegyi Nyomdánál", O)]
        );
        assert_eq!(
            found("Kardeşim Yıldırım Tekstil'de çalışıyor."),
            [("Yıldırım Tekstil'de", O)]
        );
        assert_eq!(
            found("Työskentelen Laaksosen Puutarhalla kesät."),
            [("Laaksosen Puutarhalla", O)]
        );
        assert_eq!(
            found("Работаю в Заречьестрой бригадиром."),
            [("Заречьестрой", O)]
        );
        assert_eq!(
            found("Lucrez la Dobrescu Mobila din Iași."),
            [("Dobrescu Mobila", O)]
        );
        assert_eq!(
            found("Saya bekerja di PT Cahaya Mandala sejak Mei."),
            [("PT Cahaya Mandala", O)]
        );
        assert_eq!(
            found("Anh ấy làm ở Hoàng Long Logistics, nếu cần"),
            [("Hoàng Long Logistics", O)]
        );
        assert!(found("tôi làm ở nhà hôm nay").is_empty());
    }

    #[test]
    fn look_alikes_are_not_demographics() {
        for s in [
            "low of 38F overnight",
            "Row F, 38.5 cm",
            "sizes S, M, L and 10m cable",
            "works at home on Monday",
            "it works for me",
            "set F/38/2 in the config",
            "tags: male, 2024",
            "a SPI driver for the STM32 board",
            "a package manager for Windows",
            "Krankenpfleger bei Bedarf Anruf Zentrale",
            // At home, from home: no name, no apostrophe before the ending.
            "Evde çalışıyorum bu hafta.",
            "Otthon dolgozom holnap.",
            "работаю в офисе по вторникам",
        ] {
            assert!(found(s).is_empty(), "{s}: {:?}", found(s));
        }
    }
}
