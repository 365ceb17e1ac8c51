//! Identifiers known by their label, whatever their format: a label word ("member ID",
//! "Kundennummer", "n° allocataire", "numer polisy", "会員番号"), a short connector ("#", ":",
//! "no.", "is", "lautet", "est"), then an id-like token ("XK-4402917", "962D123456",
//! "23-M-04471"). The label says what the number is, so its format need not: member, policy,
//! insurance, patient, employee, student, customer and claim numbers; court case and docket
//! numbers, inmate and booking numbers; church, party and union membership numbers; tax and
//! national ids without a checksum to test; A-numbers. A field whose key is such a label
//! (`member_id`, `policyNumber`, `Aktenzeichen`) holding one id-like token is reported whole.
//!
//! Labels are matched ASCII-case-insensitively at a word start (`member_id`, `memberId` and
//! `member-id` all count, as does a label inside a JSON or query string:
//! `{"member_id":"W2188"}`); German, Dutch and Nordic compounds may end in the label
//! (`Krankenkassen-Mitgliedsnummer`). A token must hold at least four digits (or three and a
//! letter) and is not a date, a year, a time or an amount. "case" and "booking" count only
//! where the text speaks of a court or a jail, so a support case or a hotel booking is not
//! taken for a court record.
//!
//! Every step is bounded: each label match looks at most [`MAX_GAP`] bytes ahead for its
//! token, and a token is at most [`MAX_TOKEN`] bytes long.

use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use super::context::{Keywords, LastKey, by_key, char_at, char_before};
use crate::classify::need::WordsNeed;
use crate::classify::{Detector, Field};
use crate::error::{Error, ErrorKind};
use crate::item::{Finding, PsdKind};
use crate::taxonomy::Category;
use crate::text::script::is_cjk;

/// Most bytes between the end of a label and its token.
const MAX_GAP: usize = 32;
/// Longest token.
const MAX_TOKEN: usize = 40;

/// What a label says its number is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Member, customer, employee, student, claim, account numbers.
    Account,
    /// Patient, insurance, health-plan numbers.
    Medical,
    /// Membership of a church, party or union: the number reveals the membership.
    Belief,
    /// Docket, court and inmate numbers.
    Criminal,
    /// "case": a court case only where the text speaks of a court.
    Case,
    /// "booking": a jail booking only where the text speaks of a jail.
    Booking,
    /// National, social-security and immigration numbers.
    National,
    /// Tax numbers.
    Tax,
    /// A bare "ID": a person's number only where a person is named just before it
    /// ("Employee: Ana Ruiz, ID 0041-882", "user ana@example.org (id 77120)").
    PersonId,
}

use Class::*;

/// Names of personal identity and tax numbers of many countries, from python-stdnum's module
/// docstrings and the issuing authorities' own names (`data/ids/labels.tsv`, built by
/// `data/ids/build/stdnum_labels.py`): `label<TAB>class[,caps]<TAB>source`. A label that
/// [`LABELS`] already holds keeps its entry there; a `caps` label (an ASCII acronym: "EGN",
/// "SIN", "AVS") counts only where it is written in capitals or as a key.
const NATIONAL_LABELS: &str = include_str!("../../../data/ids/labels.tsv");

/// Labels, lower case. Multi-word ASCII labels also match with `_`, `-` or nothing between
/// their words (`member_id`, `memberid`).
const LABELS: &[(&str, Class)] = &[
    // English
    ("member id", Account),
    ("member number", Account),
    ("member no", Account),
    ("member #", Account),
    ("membership number", Account),
    ("membership no", Account),
    ("membership id", Account),
    ("subscriber id", Medical),
    ("subscriber number", Medical),
    ("customer number", Account),
    ("customer no", Account),
    ("client number", Account),
    ("client no", Account),
    ("customer id", Account),
    ("client id", Account),
    ("user id", Account),
    ("account id", Account),
    ("account", Account),
    ("acct", Account),
    // A bare role word straight before the number: "employee 48213", "member W7730218841".
    ("employee", Account),
    ("member", Account),
    ("customer", Account),
    ("student", Account),
    ("patient", Medical),
    ("id", PersonId),
    ("employee id", Account),
    ("employee number", Account),
    ("employee no", Account),
    ("employee #", Account),
    ("staff id", Account),
    ("staff number", Account),
    ("personnel number", Account),
    ("payroll number", Account),
    ("payroll id", Account),
    ("badge", Account),
    ("student id", Account),
    ("student number", Account),
    ("student no", Account),
    ("matriculation number", Account),
    ("enrollment number", Account),
    ("enrolment number", Account),
    ("library card", Account),
    ("claim", Account),
    ("claim number", Account),
    ("claim no", Account),
    ("benefits id", Account),
    ("beneficiary id", Account),
    ("loyalty number", Account),
    ("frequent flyer", Account),
    ("railcard", Account),
    ("bahncard", Account),
    ("voter id", National),
    ("voter registration", National),
    ("voter registration number", National),
    ("voter reg", National),
    ("voter reg.", National),
    ("voter number", National),
    ("imei", Account),
    ("device imei", Account),
    ("patient id", Medical),
    ("patient number", Medical),
    // Cards that carry a health or insurance number.
    ("patient card", Medical),
    ("health card", Medical),
    ("health card number", Medical),
    ("insurance card", Medical),
    ("medical card", Medical),
    ("ehic", Medical),
    ("ohip", Medical),
    ("versichertenkarte", Medical),
    ("gesundheitskarte", Medical),
    ("krankenkassenkarte", Medical),
    ("e-card", Medical),
    ("svnr", Medical),
    ("sv-nummer", Medical),
    ("sv-nr", Medical),
    // Identity documents: whatever follows with digits is the document's number.
    ("passport number", National),
    ("passport no", National),
    ("id card number", National),
    ("identity card", National),
    ("id number", National),
    ("patient no", Medical),
    ("medicaid", Medical),
    ("medicaid id", Medical),
    ("medi-cal", Medical),
    ("medi-cal id", Medical),
    ("medicare", Medical),
    ("medicare number", Medical),
    ("insurance id", Medical),
    ("insurance number", Medical),
    ("insurance no", Medical),
    ("health plan id", Medical),
    ("plan id", Medical),
    ("policy", Medical),
    ("policy number", Medical),
    ("policy no", Medical),
    ("group number", Medical),
    ("case", Case),
    ("case number", Case),
    ("case no", Case),
    ("docket", Criminal),
    ("docket number", Criminal),
    ("docket no", Criminal),
    ("court", Criminal),
    ("court order", Criminal),
    ("indictment", Criminal),
    ("citation number", Criminal),
    ("booking", Booking),
    ("booking number", Booking),
    ("inmate", Criminal),
    ("inmate id", Criminal),
    ("inmate number", Criminal),
    ("inmate no", Criminal),
    ("prisoner number", Criminal),
    ("offender id", Criminal),
    ("offender number", Criminal),
    ("idoc", Criminal),
    ("cdcr", Criminal),
    ("tdcj", Criminal),
    ("bop register", Criminal),
    ("register number", Criminal),
    ("parole number", Criminal),
    ("probation number", Criminal),
    ("a-number", National),
    ("a#", National),
    ("alien number", National),
    ("alien registration", National),
    ("uscis", National),
    ("uscis number", National),
    ("eoir", National),
    ("national insurance", National),
    ("ni number", National),
    ("ni no", National),
    ("social security", National),
    // The last digits of an SSN still single a person out among the account holders.
    ("ssn last four", National),
    ("ssn last 4", National),
    ("last four of my ssn", National),
    ("last 4 of my ssn", National),
    ("last four of her ssn", National),
    ("last four of his ssn", National),
    ("last four of ssn", National),
    ("last 4 of ssn", National),
    ("last four ssn", National),
    ("last 4 ssn", National),
    ("social insurance number", National),
    ("tax id", Tax),
    ("tax number", Tax),
    ("tax file number", Tax),
    ("tin", Tax),
    ("itin", Tax),
    ("employer identification number", Tax),
    ("church member", Belief),
    ("parish number", Belief),
    ("union card", Belief),
    ("union member", Belief),
    ("union membership", Belief),
    ("party member", Belief),
    ("party membership", Belief),
    // German
    ("mitgliedsnummer", Account),
    ("mitglieds-nr", Account),
    ("mitgliedsnr", Account),
    ("kundennummer", Account),
    ("kunden-nr", Account),
    ("kundennr", Account),
    ("personalnummer", Account),
    ("matrikelnummer", Account),
    ("vertragsnummer", Account),
    ("versicherungsnummer", Medical),
    ("versichertennummer", Medical),
    ("kvnr", Medical),
    ("versicherten-nr", Medical),
    ("policennummer", Medical),
    ("krankenversichertennummer", Medical),
    ("patientennummer", Medical),
    ("fallnummer", Medical),
    ("vorgangsnummer", Account),
    ("geschäftszeichen", Account),
    ("bg-nummer", Account),
    ("bg-nr", Account),
    ("kundenkonto", Account),
    ("aktenzeichen", Criminal),
    ("az.", Criminal),
    ("gefangenennummer", Criminal),
    ("gefangenenbuchnummer", Criminal),
    ("gef.-buch-nr", Criminal),
    ("buchungsnummer", Booking),
    ("steuernummer", Tax),
    ("steuer-nr", Tax),
    ("steuer-id", Tax),
    ("steuerid", Tax),
    ("steuer-identifikationsnummer", Tax),
    ("identifikationsnummer", Tax),
    ("sozialversicherungsnummer", National),
    ("rentenversicherungsnummer", National),
    ("ausweisnummer", National),
    ("ausweis", National),
    ("personalausweis", National),
    ("reisepass", National),
    ("ausweis-nr", National),
    ("parteimitglied", Belief),
    ("gewerkschaftsmitglied", Belief),
    // French
    ("numéro d'adhérent", Account),
    ("numero d'adherent", Account),
    ("n° d'adhérent", Account),
    ("adhérent", Account),
    ("adherent", Account),
    ("numéro client", Account),
    ("numero client", Account),
    ("n° client", Account),
    ("numéro de client", Account),
    ("numéro de contrat", Account),
    ("numéro de police", Medical),
    ("n° de police", Medical),
    ("matricule", Account),
    ("numéro étudiant", Account),
    ("allocataire", Account),
    ("numéro de dossier", Account),
    ("n° de dossier", Account),
    ("numéro fiscal", Tax),
    ("numero fiscal", Tax),
    ("numéro de sécurité sociale", National),
    ("numero de securite sociale", National),
    ("carte vitale", Medical),
    ("numéro de sécu", National),
    ("numero de secu", National),
    ("n° de sécu", National),
    ("carte d'identité", National),
    ("numéro de passeport", National),
    ("numéro d'écrou", Criminal),
    ("écrou", Criminal),
    ("numéro de parquet", Criminal),
    ("n° parquet", Criminal),
    ("n° de parquet", Criminal),
    ("numéro parquet", Criminal),
    ("numéro de rôle", Criminal),
    ("rg n", Criminal),
    // Spanish
    ("número de socio", Account),
    ("numero de socio", Account),
    ("socio", Account),
    ("número de afiliación", Account),
    ("número de afiliado", Account),
    ("afiliado", Account),
    ("número de cliente", Account),
    ("nº de cliente", Account),
    ("número de empleado", Account),
    ("legajo", Account),
    ("matrícula", Account),
    ("número de póliza", Medical),
    ("póliza", Medical),
    ("poliza", Medical),
    ("tarjeta sanitaria", Medical),
    ("número de la seguridad social", National),
    ("número de afiliación a la seguridad social", National),
    ("seguridad social", National),
    ("documento de identidad", National),
    ("cédula", National),
    ("cedula", National),
    ("cédula de ciudadanía", National),
    ("cédula de identidad", National),
    ("dni", National),
    ("pasaporte", National),
    ("cuil", National),
    ("cuit", Tax),
    ("rut", Tax),
    ("número de pasaporte", National),
    ("carta d'identità", National),
    ("numero di passaporto", National),
    ("paspoortnummer", National),
    ("identiteitskaart", National),
    ("número de expediente", Criminal),
    ("expediente", Case),
    ("procedimiento", Criminal),
    ("diligencias previas", Criminal),
    ("sumario", Case),
    ("causa", Case),
    ("número de interno", Criminal),
    ("nss", National),
    ("número de seguridad social", National),
    ("curp", National),
    // Italian
    ("numero di tessera", Account),
    ("tessera", Account),
    ("numero socio", Account),
    ("codice cliente", Account),
    ("numero cliente", Account),
    ("matricola", Account),
    ("numero di polizza", Medical),
    ("polizza", Medical),
    ("numero di pratica", Account),
    ("pratica", Account),
    ("numero di ruolo", Criminal),
    ("r.g.", Criminal),
    ("fascicolo", Criminal),
    ("tessera del partito", Belief),
    ("tessera sindacale", Belief),
    // Portuguese
    ("número de sócio", Account),
    ("numero de socio", Account),
    ("número de utente", Medical),
    ("número do cliente", Account),
    ("apólice", Medical),
    ("apolice", Medical),
    ("cartão sus", Medical),
    ("cns", Medical),
    ("niss", National),
    ("rg", National),
    ("carteira de identidade", National),
    ("passaporte", National),
    ("nif", Tax),
    ("processo n", Criminal),
    ("processo", Case),
    // Dutch
    ("lidnummer", Account),
    ("klantnummer", Account),
    ("relatienummer", Account),
    ("personeelsnummer", Account),
    ("studentnummer", Account),
    ("polisnummer", Medical),
    ("verzekerdennummer", Medical),
    ("dossiernummer", Account),
    ("zaaknummer", Criminal),
    ("parketnummer", Criminal),
    ("rolnummer", Criminal),
    // Polish
    ("numer członkowski", Account),
    ("nr członkowski", Account),
    ("numer klienta", Account),
    ("nr klienta", Account),
    ("numer polisy", Medical),
    ("nr polisy", Medical),
    ("numer legitymacji", Account),
    ("nr legitymacji", Account),
    ("nr albumu", Account),
    ("numer albumu", Account),
    ("numer umowy", Account),
    ("nr umowy", Account),
    ("sygn. akt", Criminal),
    ("sygnatura", Criminal),
    ("nr sprawy", Case),
    ("numer sprawy", Case),
    ("nip", Tax),
    ("nr dowodu", National),
    ("dowód osobisty", National),
    ("numer paszportu", National),
    ("občanský průkaz", National),
    ("číslo op", National),
    ("číslo pasu", National),
    ("passnummer", National),
    ("passnummeret", National),
    ("numer dowodu", National),
    ("pesel", National),
    // Swedish, Danish, Norwegian
    ("medlemsnummer", Account),
    ("kundnummer", Account),
    ("kundenummer", Account),
    ("försäkringsnummer", Medical),
    ("forsikringsnummer", Medical),
    ("policenummer", Medical),
    ("anställningsnummer", Account),
    ("medarbejdernummer", Account),
    ("ansattnummer", Account),
    ("målnummer", Criminal),
    ("sagsnummer", Case),
    ("saksnummer", Case),
    ("ärendenummer", Case),
    ("diarienummer", Case),
    ("journalnummer", Medical),
    ("cpr", National),
    ("cpr-nr", National),
    ("cpr-nummer", National),
    ("personnummer", National),
    ("fødselsnummer", National),
    ("fodselsnummer", National),
    // Czech
    ("členské číslo", Account),
    ("číslo pojištěnce", Medical),
    ("číslo pojistky", Medical),
    ("číslo smlouvy", Account),
    ("číslo zákazníka", Account),
    ("osobní číslo", Account),
    ("spisová značka", Criminal),
    ("sp. zn.", Criminal),
    ("rodné číslo", National),
    ("rodne cislo", National),
    ("č. j.", Case),
    ("čj.", Case),
    // Irish, Japanese and other national numbers
    ("tc kimlik", National),
    ("t.c. kimlik", National),
    ("kimlik no", National),
    ("tc no", National),
    ("tc numaran", National),
    ("tc numaram", National),
    ("tc numarası", National),
    ("tc kimlik numaran", National),
    ("kimlik numarası", National),
    ("ppsn", National),
    ("pps number", National),
    ("pps no", National),
    ("my number", National),
    ("マイナンバー", National),
    ("マイナンバーカード", National),
    ("個人番号", National),
    // Military identity books (Ukrainian, Russian), in the cases a sentence puts them in.
    ("військовий квиток", National),
    ("військовим квитком", National),
    ("військового квитка", National),
    ("военный билет", National),
    ("военным билетом", National),
    ("военного билета", National),
    // Russian, Ukrainian, Greek, Chinese, Korean, Arabic, Hebrew, Finnish, Hungarian,
    // Romanian, Croatian/Serbian/Bosnian, Indonesian, Vietnamese and Indian national, tax and
    // health-insurance numbers (Cyrillic and Greek labels in both cases: the matcher folds
    // ASCII only).
    ("снилс", National),
    ("СНИЛС", National),
    ("инн", Tax),
    ("ИНН", Tax),
    ("полис омс", Medical),
    ("полиса омс", Medical),
    ("номер паспорта", National),
    ("паспорт", National),
    ("паспорта", National),
    ("загранпаспорт", National),
    ("закордонний паспорт", National),
    ("серия и номер паспорта", National),
    ("рнокпп", Tax),
    ("РНОКПП", Tax),
    ("іпн", Tax),
    ("ІПН", Tax),
    ("ΑΜΚΑ", National),
    ("αμκα", National),
    ("ΑΦΜ", Tax),
    ("αφμ", Tax),
    ("αριθμός ταυτότητας", National),
    ("身份证号", National),
    ("身份证号码", National),
    ("身份證號", National),
    ("身份證字號", National),
    // Taiwan writes 身分 where the mainland writes 身份 (the identity card's own wording).
    ("身分證字號", National),
    ("身分證號", National),
    ("身分證號碼", National),
    ("身分證統一編號", National),
    ("社保卡号", National),
    ("医保卡号", Medical),
    ("护照号", National),
    ("주민등록번호", National),
    ("주민번호", National),
    ("외국인등록번호", National),
    ("여권번호", National),
    ("رقم الهوية", National),
    // Without the article ("رقم هوية المرسل", the sender's identity number), and the national
    // identity and its card.
    ("رقم هوية", National),
    ("هوية وطنية", National),
    ("الهوية الوطنية", National),
    ("بطاقة الهوية", National),
    ("الرقم الوطني", National),
    ("رقم جواز السفر", National),
    ("תעודת זהות", National),
    ("מספר זהות", National),
    ("henkilötunnus", National),
    ("hetu", National),
    ("rijksregisternummer", National),
    ("rijksregister", National),
    ("insz", National),
    ("numéro de registre national", National),
    ("numero de registre national", National),
    ("numéro national", National),
    ("ΑΔΤ", National),
    ("αδτ", National),
    ("sotu", National),
    ("taj szám", Medical),
    ("taj", Medical),
    ("személyi igazolvány", National),
    ("személyi igazolvány szám", National),
    ("útlevélszám", National),
    ("taj-szám", Medical),
    ("adóazonosító jel", Tax),
    ("személyi szám", National),
    ("cnp", National),
    ("cod numeric personal", National),
    ("oib", Tax),
    ("jmbg", National),
    ("nik", National),
    ("no. ktp", National),
    ("nomor ktp", National),
    ("npwp", Tax),
    ("cccd", National),
    ("cmnd", National),
    ("số căn cước", National),
    ("aadhaar", National),
    ("aadhar", National),
    ("आधार", National),
    ("आधार नंबर", National),
    ("आधार संख्या", National),
    ("आधार कार्ड नंबर", National),
    ("کد ملی", National),
    ("کدملی", National),
    ("شماره ملی", National),
    ("code melli", National),
    ("iranian national code", National),
    ("numéro étranger", National),
    ("numéro d'étranger", National),
    ("numero etranger", National),
    ("numéro agdref", National),
    ("emirates id", National),
    ("الهوية الإماراتية", National),
    ("هويتي الإماراتية", National),
    ("رقم الهوية", National),
    ("رقم هويتي", National),
    ("رقم هويتي الإماراتية", National),
    ("pan", Tax),
    ("pan number", Tax),
    ("pan card", Tax),
    ("hkid", National),
    ("nric", National),
    ("tfn", Tax),
    ("tax file number", Tax),
    ("nin", National),
    ("teudat zehut", National),
    ("תעודת זהות", National),
    ("מספר זהות", National),
    // Hebrew "ת\"ז" (the short form, with a quote or a gershayim), Saudi and Gulf residence
    // permits ("رقم إقامتي", "iqama number").
    ("ת\"ז", National),
    ("ת״ז", National),
    ("ת.ז", National),
    ("رقم إقامتي", National),
    ("رقم إقامته", National),
    ("رقم إقامتها", National),
    ("رقم الإقامة", National),
    ("رقم إقامة", National),
    ("iqama", National),
    ("iqama number", National),
    ("会員番号", Account),
    ("顧客番号", Account),
    ("社員番号", Account),
    ("従業員番号", Account),
    ("学籍番号", Account),
    ("患者番号", Medical),
    ("診察券番号", Medical),
    ("保険証番号", Medical),
    ("被保険者番号", Medical),
    ("証券番号", Medical),
    ("事件番号", Criminal),
    ("受給者番号", Account),
];

/// Acronym labels that are also ordinary words or other acronyms in lower case ("cpr",
/// "tin", "az."): in lower case they count only as a key (`"cpr": "…"`).
const ACRONYMS: &[&str] = &[
    "pan", "hkid", "nric", "tfn", "nin", "tin", "itin", "nif", "nip", "nss", "niss", "cns", "curp",
    "cpr", "pesel", "ppsn", "eoir", "uscis", "idoc", "cdcr", "tdcj", "acct", "az.", "a#", "cpr-nr",
    "cnp", "oib", "nik", "sotu", "jmbg", "cccd", "cmnd", "npwp", "taj", "svnr", "ehic", "ohip",
    "e-card", "kvnr",
];

/// Words that make "case", "expediente", "processo" a court matter, and "booking" a jail's.
/// Words that make "booking" a jail's (a card "charged twice" is no criminal charge).
const JAIL_CONTEXT: &[&str] = &[
    "jail",
    "inmate",
    "arrest",
    "arrested",
    "booked into",
    "custody",
    "detention",
    "detained",
    "sheriff",
    "police",
    "prison",
    "bail",
    "mugshot",
    "charged with",
    "correctional",
    "gefängnis",
    "haft",
    "polizei",
    "cárcel",
    "detenido",
    "garde à vue",
];

const LEGAL_CONTEXT: &[&str] = &[
    "court",
    "judge",
    "docket",
    "hearing",
    "trial",
    "attorney",
    "lawyer",
    "counsel",
    "defender",
    "prosecutor",
    "plaintiff",
    "defendant",
    "lawsuit",
    "charge",
    "charged",
    "arrest",
    "convicted",
    "conviction",
    "probation",
    "parole",
    "bail",
    "bond",
    "custody",
    "protective order",
    "restraining order",
    "divorce",
    "asylum",
    "immigration",
    "deportation",
    "removal",
    "uscis",
    "eoir",
    "jail",
    "prison",
    "inmate",
    "sheriff",
    "police",
    "felony",
    "misdemeanor",
    "dui",
    "gericht",
    "richter",
    "anwalt",
    "anwältin",
    "verfahren",
    "strafverfahren",
    "staatsanwaltschaft",
    "verhandlung",
    "tribunal",
    "juge",
    "avocat",
    "avocate",
    "audience",
    "procès",
    "juzgado",
    "juez",
    "abogado",
    "abogada",
    "juicio",
    "tribunale",
    "giudice",
    "avvocato",
    "udienza",
    "processo penal",
    "advogado",
    "advogada",
    "rechtbank",
    "advocaat",
    "zitting",
    "sąd",
    "sądu",
    "sędzia",
    "adwokat",
    "rozprawa",
    "domstol",
    "tingsrätt",
    "retten",
    "byret",
    "advokat",
    "soud",
    "soudu",
    "advokát",
    "cárcel",
    "prisión",
    "gefängnis",
    "haft",
    "prison",
    "carcere",
    "więzienie",
    "fängelse",
];

/// Words for a person (or an insurer) that make a bare "ID" after them the person's number.
const PERSON_CONTEXT: &[&str] = &[
    "user",
    "employee",
    "patient",
    "customer",
    "client",
    "member",
    "student",
    "tenant",
    "resident",
    "applicant",
    "passenger",
    "guest",
    "subscriber",
    "holder",
    "mitarbeiter",
    "kunde",
    "kundin",
    "patientin",
    "paciente",
    "cliente",
    "utente",
    "klant",
    "medewerker",
    "klient",
    "pacjent",
    "pracownik",
    "zaměstnanec",
    "ansatt",
    "anställd",
    "medarbejder",
    // An insurer's number: "Insurance: Acme Health ID W5512034".
    "insurance",
    "insurer",
    "health plan",
    "versicherung",
    "krankenkasse",
    "assurance",
    "mutuelle",
    "seguro",
    "aseguradora",
    "assicurazione",
    "verzekering",
    "zorgverzekeraar",
    "forsikring",
    "försäkring",
    "ubezpieczenie",
    "pojišťovna",
];

/// Bytes before a bare "ID" searched for a person.
const PERSON_REACH: usize = 64;

/// Words between a label and its token ("member ID no. 4471", "Kundennummer lautet 9921",
/// "n° allocataire 22071", "my A-number is A-209…").
const CONNECTORS: &[&str] = &[
    "no",
    "no.",
    "nr",
    "nr.",
    "nº",
    "n°",
    "n.º",
    "n.",
    "num",
    "num.",
    "number",
    "nummer",
    "numéro",
    "numero",
    "número",
    "numer",
    "číslo",
    "id",
    "is",
    "was",
    "ist",
    "lautet",
    "est",
    "es",
    "è",
    "é",
    "är",
    "er",
    "je",
    "jest",
    "to",
    "of",
    "du",
    "de",
    "del",
    "do",
    "da",
    "der",
    "des",
    "di",
    "the",
    "my",
    "our",
    "his",
    "her",
    "their",
    "sein",
    "seine",
    "ihr",
    "ihre",
    "mein",
    "meine",
    "mon",
    "ma",
    "mi",
    "mio",
    "mia",
    "meu",
    "minha",
    "su",
    "son",
    "sa",
    "code",
    "nro",
    "nro.",
    "ref",
    "ref.",
    "begins",
    "starts",
    "ends",
    "ending",
    "with",
    "#",
    "は",
    "の",
    "が",
    // Copulas, possessives and articles of the other languages the labels are in: "CNP-ul meu
    // este …", "Personalausweis hat die Nummer …", "ΑΦΜ μου είναι …", "HETU on …".
    "ul",
    "meu",
    "mea",
    "este",
    "e",
    "hat",
    "die",
    "mijn",
    "on",
    "minun",
    "min",
    "mitt",
    "mit",
    "mój",
    "moj",
    "moja",
    "moje",
    "můj",
    "muj",
    "μου",
    "είναι",
    "ο",
    "η",
    "το",
    "jeg",
    "har",
    // Persian, Arabic, Turkish, Russian and Ukrainian possessives and copulas ("کد ملی من
    // …", "رقم هويتي هو …", "TC kimlik numaram: …", "мой ИНН …"), French "est le".
    "من",
    "ام",
    "هم",
    "هو",
    "هي",
    "le",
    "benim",
    "мой",
    "мій",
    // Whose number it is, in the genitive, between the label and the number ("РНОКПП
    // відправника …", "ИНН получателя …", "СНИЛС мамы …").
    "моя",
    "моє",
    "моё",
    "відправника",
    "отримувача",
    "отримувачки",
    "отправителя",
    "получателя",
    "платника",
    "плательщика",
    "мами",
    "мамы",
    "тата",
    "батька",
    "отца",
    "сина",
    "сына",
    "доньки",
    "дочери",
    "дружини",
    "жены",
    "чоловіка",
    "мужа",
    // The same in Arabic ("رقم هوية المرسل …", "رقم هوية المستلم …").
    "المرسل",
    "المستلم",
    "العميل",
    "المريض",
    "—",
    // Hebrew "mine" and copulas ("ת\"ז שלי …"), Vietnamese "of me is" ("số CCCD của em là
    // …"), Indonesian "my … is" ("NIK saya adalah …").
    "שלי",
    "שלו",
    "שלה",
    "הוא",
    "היא",
    "của",
    "em",
    "tôi",
    "mình",
    "là",
    "saya",
    "adalah",
];

/// Normalised field keys (lower case, letters and digits only) that hold such a number, by
/// suffix: `member_id`, `primaryMemberId`, `policy_number`.
const KEY_SUFFIXES: &[(&str, Class)] = &[
    ("memberid", Account),
    ("membernumber", Account),
    ("memberno", Account),
    ("membershipnumber", Account),
    ("membershipid", Account),
    ("subscriberid", Medical),
    ("employeeid", Account),
    ("employeenumber", Account),
    ("staffid", Account),
    ("studentid", Account),
    ("studentnumber", Account),
    ("patientid", Medical),
    ("patientnumber", Medical),
    ("insuranceid", Medical),
    ("insurancenumber", Medical),
    ("policynumber", Medical),
    ("policyno", Medical),
    ("medicaidid", Medical),
    ("medicareid", Medical),
    ("claimnumber", Account),
    ("casenumber", Case),
    ("caseno", Case),
    ("docketnumber", Criminal),
    ("docketno", Criminal),
    ("inmateid", Criminal),
    ("inmatenumber", Criminal),
    ("anumber", National),
    ("aliennumber", National),
    ("taxid", Tax),
    ("taxnumber", Tax),
    ("nationalid", National),
    ("mitgliedsnummer", Account),
    ("kundennummer", Account),
    ("versichertennummer", Medical),
    ("aktenzeichen", Criminal),
    ("steuernummer", Tax),
    ("cpf", National),
    ("pesel", National),
    ("nif", Tax),
    ("nir", National),
    ("bsn", National),
    ("tc kimlik", National),
    ("t.c. kimlik", National),
    ("kimlik no", National),
    ("kimlik numarası", National),
    ("ppsn", National),
    ("cpr", National),
    ("personnummer", National),
    // National numbers named by their own acronym or name as a key: `"cnp": "…"`,
    // `aadhaarNumber`, `emirates_id`.
    ("cnp", National),
    ("oib", National),
    ("jmbg", National),
    ("egn", National),
    ("amka", National),
    ("curp", National),
    ("tckn", National),
    ("tckimlik", National),
    ("aadhaar", National),
    ("aadhar", National),
    ("emiratesid", National),
    ("nric", National),
    ("hkid", National),
    ("hetu", National),
    ("henkilotunnus", National),
    ("rodnecislo", National),
    ("fodselsnummer", National),
    ("cprnr", National),
];

/// Finds identifiers by their label.
#[derive(Debug)]
pub(super) struct Labelled {
    labels: AhoCorasick,
    /// What the scanned text must hold to contain a label.
    labels_need: Option<WordsNeed>,
    classes: Vec<Label>,
    legal: Keywords,
    jail: Keywords,
    person: Keywords,
}

/// The spellings of one label: as written, and for a multi-word ASCII label also joined by
/// `_`, `-` and nothing.
fn variants(label: &str) -> Vec<String> {
    let mut out = vec![label.to_owned()];
    if label.contains(' ') && label.is_ascii() {
        for sep in ["_", "-", ""] {
            out.push(label.replace(' ', sep));
        }
    }
    out
}

/// What a matched label says and how it may stand.
#[derive(Debug, Clone, Copy)]
struct Label {
    class: Class,
    /// A compound noun may end in the label ("Krankenkassen-Mitgliedsnummer").
    compound: bool,
    /// An acronym that is a label only in capitals (or as a key).
    caps: bool,
}

/// The rows of [`NATIONAL_LABELS`]: label, class, whether only in capitals.
fn national_labels() -> Result<Vec<(&'static str, Class, bool)>, Error> {
    let mut out = Vec::new();
    for (n, line) in NATIONAL_LABELS.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut cols = line.split('\t');
        let (Some(label), Some(class)) = (cols.next(), cols.next()) else {
            return Err(Error::new(
                ErrorKind::Build,
                format!("data/ids/labels.tsv line {}: fewer than two columns", n + 1),
            ));
        };
        let caps = class.ends_with(",caps");
        let class = match class.trim_end_matches(",caps") {
            "national" => National,
            "tax" => Tax,
            "medical" => Medical,
            other => {
                return Err(Error::new(
                    ErrorKind::Build,
                    format!(
                        "data/ids/labels.tsv line {}: unknown class {other:?}",
                        n + 1
                    ),
                ));
            }
        };
        out.push((label, class, caps));
    }
    Ok(out)
}

/// Whether a label of [`LABELS`] is `label`, ASCII case aside.
fn listed(label: &str) -> bool {
    LABELS.iter().any(|(l, _)| l.eq_ignore_ascii_case(label))
}

impl Labelled {
    pub(super) fn new() -> Result<Self, Error> {
        let mut patterns = Vec::new();
        let mut classes = Vec::new();
        let more = national_labels()?;
        let rows = LABELS
            .iter()
            .map(|&(l, c)| (l, c, false))
            .chain(more.into_iter().filter(|(l, _, _)| !listed(l)));
        for (label, class, caps) in rows {
            // A compound noun may end in the label: "Krankenkassen-Mitgliedsnummer".
            let compound = !label.is_ascii() && label.chars().count() >= 9
                || label.ends_with("nummer") && label.len() >= 9;
            for v in variants(label) {
                patterns.push(v);
                classes.push(Label {
                    class,
                    compound,
                    caps,
                });
            }
        }
        // A DFA: every text with one of the labels' letter pairs is scanned whole, and a DFA
        // reads a byte in a few instructions where the default NFA takes several times more.
        let labels = AhoCorasickBuilder::new()
            .kind(Some(AhoCorasickKind::DFA))
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostLongest)
            .build(&patterns)
            .map_err(|e| Error::new(ErrorKind::Build, format!("labelled keywords: {e}")))?;
        Ok(Labelled {
            labels_need: WordsNeed::of(&patterns),
            labels,
            classes,
            legal: Keywords::new("labelled", LEGAL_CONTEXT)?,
            jail: Keywords::new("labelled", JAIL_CONTEXT)?,
            person: Keywords::new("labelled", PERSON_CONTEXT)?,
        })
    }
}

/// Whether a label found at `start..end` stands on its own: at a word start (or a camelCase
/// hump, or anywhere for a compound label) and not running on into a longer word.
fn label_bounds(text: &str, start: usize, end: usize, compound: bool) -> bool {
    let first = char_at(text, start);
    let last = text.get(..end).and_then(|s| s.chars().next_back());
    let cjk = first.is_some_and(is_cjk);
    let starts = cjk
        || compound
        || match char_before(text, start) {
            None => true,
            Some(p) => {
                !p.is_alphanumeric() || (p.is_lowercase() && first.is_some_and(char::is_uppercase))
            }
        };
    let ends = cjk
        || last.is_some_and(|c| !c.is_alphanumeric())
        || !char_at(text, end).is_some_and(|c| {
            c.is_alphabetic() && !(c.is_uppercase() && last.is_some_and(char::is_lowercase))
        });
    starts && ends
}

/// Skips the connector after a label; returns where a token may start.
fn skip_connector(text: &str, from: usize) -> Option<usize> {
    let mut limit = (from + MAX_GAP).min(text.len());
    let mut i = from;
    let mut words = 0;
    let mut asides = 0;
    let mut colon_word = false;
    while i < limit {
        let c = char_at(text, i)?;
        // A remark in brackets between the label and its number, without a digit ("member ID
        // (as on the card): …"), is passed over, once.
        if c == '(' && asides == 0 {
            let close = super::context::after(text, i, MAX_GAP + 1).find(')');
            if let Some(close) = close
                && text
                    .get(i..i + close)
                    .is_some_and(|inner| !inner.bytes().any(|b| b.is_ascii_digit()))
            {
                asides += 1;
                i += close + 1;
                limit = (i + MAX_GAP).min(text.len());
                continue;
            }
        }
        if c.is_whitespace()
            || matches!(
                c,
                ':' | '='
                    | '#'
                    | '№'
                    | '"'
                    | '\''
                    | '('
                    | '['
                    | '-'
                    | '–'
                    | '—'
                    | '：'
                    | '（'
                    | '「'
                    | '\\'
                    | '.'
                    // The Persian non-joiner before a suffix ("کد ملی‌ام": my national code).
                    | '\u{200C}'
            )
        {
            i += c.len_utf8();
            continue;
        }
        if c.is_ascii_digit() {
            return Some(i);
        }
        // A connector word, or the token itself (which may start with a letter).
        let rest = text.get(i..)?;
        let word_end = rest
            .find(|ch: char| ch.is_whitespace() || matches!(ch, ':' | '=' | '#' | '"' | '('))
            .unwrap_or(rest.len());
        let word = rest.get(..word_end)?;
        let is_connector = CONNECTORS.iter().any(|w| w.eq_ignore_ascii_case(word))
            || (is_cjk(c) && CONNECTORS.iter().any(|w| rest.starts_with(w)));
        if is_connector && words < 3 {
            words += 1;
            i += if is_cjk(c) { c.len_utf8() } else { word_end };
            continue;
        }
        // One word that closes the label's phrase with a colon, whose it is or why it is
        // given ("РНОКПП мами: …", "Steuer-ID brauchst: …"): the number follows it.
        if !colon_word
            && !word.chars().any(|ch| ch.is_ascii_digit())
            && rest
                .get(word_end..)
                .is_some_and(|r| r.starts_with([':', '：']))
        {
            colon_word = true;
            i += word_end;
            continue;
        }
        return c.is_ascii_alphanumeric().then_some(i);
    }
    None
}

/// The id-like token starting at `at`: ASCII letter and digit groups joined by single `-`,
/// `.`, `/`, `_` (or a space before a group of digits), at most [`MAX_TOKEN`] bytes.
pub(super) fn id_token(text: &str, at: usize) -> Option<Range<usize>> {
    if let Some(spaced) = spaced_token(text, at) {
        return Some(spaced);
    }
    let b = text.as_bytes();
    let mut i = at;
    let mut end = at;
    let mut digits = 0usize;
    let mut letters = 0usize;
    let mut spaces = 0usize;
    loop {
        let group_start = i;
        while let Some(&c) = b.get(i) {
            if !c.is_ascii_alphanumeric() || i - at >= MAX_TOKEN {
                break;
            }
            if c.is_ascii_digit() {
                digits += 1;
            } else {
                letters += 1;
            }
            i += 1;
        }
        if i == group_start {
            break;
        }
        end = i;
        let sep = b.get(i).copied();
        let next = b.get(i + 1).copied();
        let joins = match sep {
            Some(b'-' | b'.' | b'/' | b'_') => next.is_some_and(|n| n.is_ascii_alphanumeric()),
            // A space before a group of digits, after digits or after a series of one to
            // three capitals that opens the token ("FX 482913", "AB 1234567").
            Some(b' ') => {
                let series = group_start == at
                    && i - at <= 3
                    && b.get(at..i)
                        .is_some_and(|g| g.iter().all(u8::is_ascii_uppercase));
                spaces < 6 && (digits > 0 || series) && next.is_some_and(|n| n.is_ascii_digit())
            }
            _ => false,
        };
        if !joins {
            break;
        }
        if sep == Some(b' ') {
            spaces += 1;
        }
        i += 1;
    }
    // Not glued to a following word (non-ASCII letters included).
    if char_at(text, end).is_some_and(|c| c.is_alphanumeric() && !is_cjk(c)) {
        return None;
    }
    let tok = text.get(at..end)?;
    // A lower-case word inside is a path or a sentence, not an id (`editor.org/rfc`).
    let worded = tok
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| w.len() >= 4 && w.bytes().all(|c| c.is_ascii_lowercase()));
    let enough = if letters == 0 {
        digits >= 5
    } else {
        digits >= 4 || (digits >= 3 && tok.len() >= 5)
    };
    if worded {
        return None;
    }
    (enough
        && tok.len() >= 4
        && !is_date_or_amount(tok)
        && !is_version(tok)
        && !super::ids::company_code(tok)
        && !stand_in(tok))
    .then_some(at..end)
}

/// A made-up value a test, a fixture or a document's example spells as such (`TEST-0001`,
/// `EXAMPLE123`, `DEMO-42`): a part of the token is a word that says so.
fn stand_in(tok: &str) -> bool {
    const WORDS: &[&str] = &[
        "test",
        "example",
        "sample",
        "dummy",
        "fake",
        "demo",
        "placeholder",
    ];
    tok.split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| WORDS.iter().any(|x| x.eq_ignore_ascii_case(w)))
}

/// A token written one character at a time, as copied from a card ("W 7 7 2 - 4 1 0 - 9 9
/// 3"): single letters, digits and dashes with one space between them, at least four digits
/// among at least six characters.
fn spaced_token(text: &str, at: usize) -> Option<Range<usize>> {
    let b = text.as_bytes();
    let (mut i, mut end, mut chars, mut digits) = (at, at, 0usize, 0usize);
    while let Some(&c) = b.get(i) {
        if !(c.is_ascii_alphanumeric() || c == b'-') || i - at >= 2 * MAX_TOKEN {
            break;
        }
        // Each character stands alone: a letter or digit glued after it makes a word.
        let next = b.get(i + 1).copied();
        if next.is_some_and(|n| n.is_ascii_alphanumeric()) {
            return None;
        }
        chars += usize::from(c != b'-');
        digits += usize::from(c.is_ascii_digit());
        end = i + 1;
        // One space leads to the next character; anything else ends the token.
        if next != Some(b' ') {
            break;
        }
        i += 2;
    }
    (chars >= 6 && digits >= 4).then_some(at..end)
}

/// Dates (`2024-05-06`, `06.05.2024`, `6/5/24`), years, decimal amounts and ISO times are
/// not identifiers.
fn is_date_or_amount(tok: &str) -> bool {
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    if tok.len() == 4 && all_digits(tok) && (tok.starts_with("19") || tok.starts_with("20")) {
        return true;
    }
    let parts: Vec<&str> = tok.split(['-', '.', '/']).collect();
    if parts.iter().all(|p| all_digits(p)) {
        let n: Vec<u32> = parts.iter().map(|p| p.parse().unwrap_or(0)).collect();
        match n.as_slice() {
            // 12.50, 1.299 (a register number `2204/31` and a check digit after a dash,
            // `22406338-8`, are not amounts)
            [_, cents] if tok.contains('.') && parts.get(1).is_some_and(|p| p.len() <= 2) => {
                return *cents < 100;
            }
            [y, m, d] if *y > 1800 => return (1..=12).contains(m) && (1..=31).contains(d),
            [a, b, y] if parts.get(2).is_some_and(|p| p.len() == 4 || p.len() == 2) => {
                return (1..=31).contains(a) && (1..=31).contains(b) && (*a <= 12 || *b <= 12);
            }
            _ => {}
        }
    }
    false
}

/// Versions (`v2.3.1`, `4.1.2`, `10.0.19045.1`): dotted numbers after a `v`, or of three or
/// four parts whose second is short (grouped ids such as `12.345.678` are not versions).
fn is_version(tok: &str) -> bool {
    let body = tok.strip_prefix(['v', 'V']).unwrap_or(tok);
    let parts: Vec<&str> = body.split('.').collect();
    let numeric = parts
        .iter()
        .all(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|c| c.is_ascii_digit()));
    let prefixed = body.len() < tok.len();
    numeric
        && parts.len() >= 2
        && (prefixed
            || (parts.len() <= 4 && parts.len() >= 3 && parts.get(1).is_some_and(|p| p.len() <= 2)))
}

impl Class {
    fn finding(self, span: Range<usize>, confidence: f32) -> Finding {
        let (kind, category) = match self {
            Account => (PsdKind::AccountId, None),
            Medical => (PsdKind::MedicalRecord, None),
            Belief => (PsdKind::AccountId, Some(Category::Beliefs)),
            Criminal | Case | Booking => (PsdKind::CriminalRecord, None),
            PersonId => (PsdKind::AccountId, None),
            National => (PsdKind::NationalId, None),
            Tax => (PsdKind::TaxId, None),
        };
        let f = Finding::new(span, kind, confidence, "labelled_id");
        match category {
            Some(c) => f.with_category(c),
            None => f,
        }
    }
}

/// The class of identifier a field's key names, if it is a label: its lower-case letters and
/// digits (`primary_MemberID` → `primarymemberid`) are read.
fn key_label(key: &str) -> Option<Class> {
    crate::text::inline::with_lower_alphanumerics(key, true, label_of_key)
}

/// [`key_label`] of a key's lower-case letters and digits.
fn label_of_key(key: &str) -> Option<Class> {
    // A short label with a word for "number" after it is the label: `cprNumber`,
    // `peselNr`, `bsnNummer`, `cpfNumero`.
    let bare = ["number", "nummer", "numero", "num", "nr", "no"]
        .iter()
        .find_map(|w| key.strip_suffix(w).filter(|b| b.len() >= 3));
    // Short keys must match exactly (`cpf`, but not `visanumber` for `anumber`).
    KEY_SUFFIXES
        .iter()
        .find(|(s, _)| key == *s || bare == Some(*s) || (s.len() >= 8 && key.ends_with(s)))
        .map(|&(_, class)| class)
}

impl Labelled {
    /// A field whose key is a label and whose whole value is one token.
    fn whole_value(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) -> bool {
        let Some(key) = field.key else {
            return false;
        };
        thread_local! {
            static LAST: LastKey<Option<Class>> = const { LastKey::new((String::new(), None)) };
        }
        let Some(class) = by_key(&LAST, key, key_label) else {
            return false;
        };
        if (class == Case
            && !field
                .description
                .is_some_and(|d| self.legal.in_field_text(d)))
            || (class == Booking
                && !field
                    .description
                    .is_some_and(|d| self.jail.in_field_text(d)))
        {
            return false;
        }
        let trimmed = text.trim();
        let start = text.len() - text.trim_start().len();
        let Some(span) = id_token(text, start) else {
            return false;
        };
        if span.len() != trimmed.len() {
            return false;
        }
        out.push(class.finding(span, 0.9));
        true
    }
}

impl Labelled {
    /// Whether a person (a word for one, or an e-mail address) is named on the line in the
    /// [`PERSON_REACH`] bytes before `at`.
    fn person_before(&self, text: &str, at: usize) -> bool {
        let mut from = at.saturating_sub(PERSON_REACH);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let window = text.get(from..at).unwrap_or_default();
        let line = window.rsplit('\n').next().unwrap_or_default();
        line.contains('@') || self.person.any_word_in(line)
    }
}

impl crate::classify::shared::Gate for Labelled {
    fn may_find(text: &str, _field: &Field<'_>) -> bool {
        text.len() >= 4 && super::context::has_digits(text, 3)
    }
}

impl Detector for Labelled {
    fn name(&self) -> &'static str {
        "labelled_id"
    }

    fn detect(&self, text: &str, field: &Field<'_>, out: &mut Vec<Finding>) {
        // Every token holds three digits at least.
        if text.len() < 4 || !super::context::has_digits(text, 3) {
            return;
        }
        if self.whole_value(text, field, out) {
            return;
        }
        if !self.labels_need.as_ref().is_none_or(|n| n.may_be_in(text)) {
            return;
        }
        let mut legal: Option<bool> = None;
        let mut jail: Option<bool> = None;
        let mut covered = 0;
        for m in self.labels.find_iter(text) {
            let Some(&Label {
                class,
                compound,
                caps,
            }) = self.classes.get(m.pattern().as_usize())
            else {
                continue;
            };
            if !label_bounds(text, m.start(), m.end(), compound) {
                continue;
            }
            let Some(at) = skip_connector(text, m.end()) else {
                continue;
            };
            // A short acronym in lower case ("cpr", "tin") is a label only as a key:
            // `"cpr": "…"`, `tin=…`.
            let matched = text.get(m.range()).unwrap_or("");
            let as_key = || {
                text.get(m.end()..at)
                    .is_some_and(|g| g.contains([':', '=']))
            };
            // An acronym that is a word of some language ("SIN", Spanish "sin") only in
            // capitals, or as a key.
            if caps && matched.bytes().any(|c| c.is_ascii_lowercase()) && !as_key() {
                continue;
            }
            if ACRONYMS.iter().any(|a| a.eq_ignore_ascii_case(matched))
                && !matched.bytes().any(|c| c.is_ascii_uppercase())
                && !as_key()
            {
                continue;
            }
            // "My Number" is Japan's personal number only written as its name; "my number
            // is …" is anyone's phone.
            if matched.eq_ignore_ascii_case("my number") && !matched.ends_with("Number") {
                continue;
            }
            // "SSN last four 4417": four digits are the whole of what the label announces.
            let last_four = matched.to_ascii_lowercase().contains("last")
                && text
                    .get(at..at + 4)
                    .is_some_and(|d| d.bytes().all(|c| c.is_ascii_digit()))
                && !char_at(text, at + 4).is_some_and(char::is_alphanumeric);
            let Some(span) = id_token(text, at).or_else(|| last_four.then(|| at..at + 4)) else {
                continue;
            };
            if class == Case {
                let court = *legal.get_or_insert_with(|| {
                    self.legal.any_in(text)
                        || field
                            .description
                            .is_some_and(|d| self.legal.in_field_text(d))
                });
                if !court {
                    continue;
                }
            }
            // A bare "ID" that is the connector of a label before it ("Member: ID 4471")
            // adds nothing to that label's finding.
            if class == PersonId && (m.start() < covered || !self.person_before(text, m.start())) {
                continue;
            }
            if class == Booking {
                let in_jail = *jail.get_or_insert_with(|| {
                    self.jail.any_in(text)
                        || field
                            .description
                            .is_some_and(|d| self.jail.in_field_text(d))
                });
                if !in_jail {
                    continue;
                }
            }
            covered = span.end;
            out.push(class.finding(span, 0.85));
        }
    }
}

#[cfg(test)]
mod tests;
