use super::*;

#[test]
fn the_place_after_a_street_address() {
    use crate::classify::structured::following_place;
    let text = "10201 Carnegie Ave, Cleveland, OH 44195";
    let place = following_place(text, 18).unwrap();
    assert_eq!(&text[place.city], "Cleveland");
    assert_eq!(&text[place.postcode.unwrap()], "44195");
}

fn spans(text: &str) -> Vec<(&str, PsdKind)> {
    let d = Address::new().unwrap();
    let mut out = Vec::new();
    d.detect(text, &Field::default(), &mut out);
    out.sort_by_key(|f| f.span.start);
    out.dedup_by(|a, b| a.span == b.span);
    out.iter()
        .map(|f| (&text[f.span.clone()], f.kind))
        .collect()
}

fn streets(text: &str) -> Vec<&str> {
    spans(text)
        .into_iter()
        .filter(|(_, k)| *k == PsdKind::StreetAddress)
        .map(|(s, _)| s)
        .collect()
}

#[test]
fn english_styles() {
    assert_eq!(
        streets("near 10201 Carnegie Ave Cleveland OH - at 9:30"),
        ["10201 Carnegie Ave"]
    );
    assert_eq!(streets("I live at 63 Larch Way, Bristol"), ["63 Larch Way"]);
    assert_eq!(
        streets("221B Baker Street, London NW1 6XE"),
        ["221B Baker Street"]
    );
    assert_eq!(
        streets("1600 Pennsylvania Ave NW, Washington, DC 20500"),
        ["1600 Pennsylvania Ave NW"]
    );
    assert_eq!(
        streets("39200 Fremont Blvd Suite 100, Fremont, CA 94538"),
        ["39200 Fremont Blvd Suite 100"]
    );
    assert_eq!(streets("5851 GA-85, Riverdale"), ["5851 GA-85"]);
    assert_eq!(streets("12 W 42nd St."), ["12 W 42nd St."]);
}

#[test]
fn european_styles() {
    assert_eq!(
        streets("Musterstraße 12, 10115 Berlin"),
        ["Musterstraße 12"]
    );
    assert_eq!(streets("Hauptstr. 5a in Köln"), ["Hauptstr. 5a"]);
    assert_eq!(streets("Berliner Allee 3"), ["Berliner Allee 3"]);
    assert_eq!(
        streets("12 avenue Jean Jaurès, 31000 Toulouse"),
        ["12 avenue Jean Jaurès"]
    );
    assert_eq!(
        streets("3 bis rue de la Paix, Paris"),
        ["3 bis rue de la Paix"]
    );
    assert_eq!(streets("via Roma 12, 00184 Roma"), ["via Roma 12"]);
    assert_eq!(streets("Piazza del Duomo 1"), ["Piazza del Duomo 1"]);
    assert_eq!(
        streets("Calle Mayor 5, 3º B, 28013 Madrid"),
        ["Calle Mayor 5, 3º B"]
    );
    assert_eq!(
        streets("Kutuzovsky Prospekt 24, Moscow"),
        ["Kutuzovsky Prospekt 24"]
    );
    assert_eq!(
        streets("Keizersgracht 123, 1015 CJ Amsterdam"),
        ["Keizersgracht 123"]
    );
    assert_eq!(streets("Drottninggatan 5"), ["Drottninggatan 5"]);
    assert_eq!(streets("ul. Marszałkowska 10"), ["ul. Marszałkowska 10"]);
}

#[test]
fn postcodes_after_an_address() {
    let found = spans("12 avenue Jean Jaurès, 31000 Toulouse");
    assert!(found.contains(&("31000", PsdKind::Postcode)));
    let found = spans("39200 Fremont Blvd, Fremont, CA 94538");
    assert!(found.contains(&("94538", PsdKind::Postcode)));
}

#[test]
fn the_place_after_an_address() {
    let t = "near 10201 Carnegie Ave Cleveland OH - radiation at 9:30";
    let p = following_place(t, 23).unwrap();
    assert_eq!(&t[p.city.clone()], "Cleveland");
    assert_eq!(&t[p.region.clone().unwrap()], "OH");
    assert_eq!(&t[p.span], " Cleveland OH");

    let t = "12 avenue Jean Jaurès, 31000 Toulouse";
    let p = following_place(t, 22).unwrap();
    assert_eq!(&t[p.city], "Toulouse");
    assert_eq!(&t[p.postcode.unwrap()], "31000");

    let t = "39200 Fremont Blvd, Fremont, CA 94538";
    let p = following_place(t, 18).unwrap();
    assert_eq!(&t[p.city], "Fremont");
    assert_eq!(&t[p.region.unwrap()], "CA");
    assert_eq!(&t[p.postcode.unwrap()], "94538");

    let t = "221B Baker Street, London NW1 6XE";
    let p = following_place(t, 17).unwrap();
    assert_eq!(&t[p.city], "London");
    assert_eq!(&t[p.postcode.unwrap()], "NW1 6XE");

    let t = "Calle Mayor 5, 3º B, 28013 Madrid";
    let p = following_place(t, 13).unwrap();
    assert_eq!(&t[p.city], "Madrid");

    assert!(following_place("63 Larch Way and then", 12).is_none());
    assert!(following_place("short", 99).is_none());
}

#[test]
fn true_negatives() {
    for s in [
        "Order #W5520193 and ORD-2024-00017",
        "3 adults and 2 children",
        "at 2025-06-09T19:00:00",
        "version 2.3.1 released",
        "costs $41.99 at the store",
        "meet at 9:30 or 14:00",
        "booking DL-88QK2",
        "in 2024 we moved",
        "issue 42 is fixed",
        "travel via Paris in 2 days",
        "SELECT * FROM orders WHERE id = 12",
        "/usr/local/lib/64",
        "give me 5 ways to relax",
        "10 st",
    ] {
        assert!(streets(s).is_empty(), "{s}: {:?}", streets(s));
    }
}

#[test]
fn postcodes_in_fields_and_after_labels() {
    let d = Address::new().unwrap();
    let mut out = Vec::new();
    let f = Field {
        path: "/zip",
        key: Some("zip_code"),
        description: None,
        dictated: false,
    };
    d.detect("94538", &f, &mut out);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].kind, PsdKind::Postcode);
    out.clear();
    let f = Field {
        path: "/q",
        key: Some("query"),
        description: None,
        dictated: false,
    };
    d.detect("94538", &f, &mut out);
    assert!(out.is_empty());
    let t = "PLZ 10115 bitte";
    d.detect(t, &Field::default(), &mut out);
    assert_eq!(&t[out[0].span.clone()], "10115");
    out.clear();
    d.detect("order 12345 and 54321 items", &Field::default(), &mut out);
    assert!(out.is_empty());
}

#[test]
fn postcodes_after_house_number_suffixes_floors_and_at_the_end() {
    let found = spans("Westersingel 212-C, 3021 KB");
    assert!(found.contains(&("3021 KB", PsdKind::Postcode)), "{found:?}");
    let found = spans("Rua das Flores 88, 2.º esq., 4050-262 Porto");
    assert!(
        found.contains(&("4050-262", PsdKind::Postcode)),
        "{found:?}"
    );
    // A number that goes on is no postcode.
    let found = spans("Westersingel 212, 3021 units sold");
    assert!(!found.iter().any(|f| f.1 == PsdKind::Postcode), "{found:?}");
}

#[test]
fn postcodes_known_by_their_layout_anywhere() {
    let postcodes = |text: &str| -> Vec<String> {
        spans(text)
            .into_iter()
            .filter(|f| f.1 == PsdKind::Postcode)
            .map(|f| f.0.to_owned())
            .collect()
    };
    assert_eq!(
        postcodes("lives near Newcastle NE6 5XB these days"),
        ["NE6 5XB"]
    );
    assert_eq!(postcodes("moving to Galway H91 X2PK in May"), ["H91 X2PK"]);
    assert_eq!(postcodes("Ottawa K2P 1L4, Canada"), ["K2P 1L4"]);
    assert_eq!(postcodes("from Zanesville, OH 43701 originally"), ["43701"]);
    assert_eq!(postcodes("my postcode is N7 8QP"), ["N7 8QP"]);
    // Other codes of letters and digits are none.
    for text in [
        "flight EI 123 then A12 3456",
        "model PS5 2DA4, SKU K9X 4RT2",
        "room B12 on floor 3, CA 9",
        "A320 NEO and the 787 fleet",
    ] {
        assert!(postcodes(text).is_empty(), "{text}");
    }
}

#[test]
fn japanese_block_addresses() {
    assert_eq!(streets("大阪市中央区本町3丁目5番7号"), ["本町3丁目5番7号"]);
    assert_eq!(streets("札幌 明日 北区北12条西7丁目"), ["北12条西7丁目"]);
    assert_eq!(streets("東京都世田谷区豪徳寺1-22-3"), ["豪徳寺1-22-3"]);
    assert_eq!(streets("東京都港区芝公園5-7 3階"), ["芝公園5-7"]);
    assert_eq!(streets("長野県白馬村北城12番地"), ["北城12番地"]);
    // Numbers in other Japanese text are no address.
    assert!(streets("仕様区分3-2-1の変更").is_empty());
    assert!(streets("民法第709条第1項の解説").is_empty());
    assert!(streets("2024-25シーズンの区切り").is_empty());
}

#[test]
fn streets_of_other_writing_traditions() {
    assert_eq!(
        streets("живу: ул. Садовая, д. 14, кв. 3, Самара"),
        ["ул. Садовая, д. 14, кв. 3"]
    );
    assert_eq!(streets("вул. Шевченка 7, Львів"), ["вул. Шевченка 7"]);
    assert_eq!(
        streets("寄到杭州市西湖区文三路120号2单元301室"),
        ["文三路120号2单元301室"]
    );
    assert_eq!(
        streets("부산광역시 해운대구 센텀로 45, 102동 804호"),
        ["센텀로 45, 102동 804호"]
    );
    assert_eq!(streets("στην οδό Αιόλου 12, Πάτρα"), ["οδό Αιόλου 12"]);
    assert_eq!(
        streets("عمارة 7، شارع الجاحظ، الشقة 12، الشميساني"),
        ["عمارة 7، شارع الجاحظ، الشقة 12"]
    );
    assert_eq!(
        streets("شارع التحلية، مبنى 45، الرياض"),
        ["شارع التحلية، مبنى 45"]
    );
    assert!(streets("أفضل مطعم في شارع الرشيد").is_empty());
    assert_eq!(
        streets("Blk 4 Lot 19 Villa Verde, Brgy. San Isidro, Antipolo"),
        ["Blk 4 Lot 19 Villa Verde, Brgy. San Isidro"]
    );
    assert_eq!(
        streets("kirim ke Jl. Melati Indah No. 8, Bandung"),
        ["Jl. Melati Indah No. 8"]
    );
    assert_eq!(
        streets("No. 7, Jalan Kenanga 2, Taman Bukit Indah"),
        ["Jalan Kenanga 2"]
    );
    assert_eq!(
        streets("rumah di Lorong Cempaka 14, Ipoh"),
        ["Lorong Cempaka 14"]
    );
    assert_eq!(
        streets("nhà ở số 27 đường Trần Phú, Đà Nẵng"),
        ["số 27 đường Trần Phú"]
    );
}

#[test]
fn look_alikes_of_streets_in_other_scripts_are_none() {
    for text in [
        "Паул. 5 рублей",
        "请在路口等我，3号门见",
        "전화번호로 010-1234-5678 연락",
        "οδηγίες 2 σελίδων",
    ] {
        assert!(streets(text).is_empty(), "{text}");
    }
}

#[test]
fn streets_with_alleys_neighbourhoods_flats_and_double_house_numbers() {
    assert_eq!(
        streets("evim Gül Mahallesi Çınar Sk. No: 5/2 Ankara"),
        ["Gül Mahallesi Çınar Sk. No: 5/2"]
    );
    assert_eq!(
        streets("ben Lale Sokak No: 17 D:4 adresinde oturuyorum"),
        ["Lale Sokak No: 17 D:4"]
    );
    assert_eq!(
        streets("nhà tôi ở số 27 ngõ 81 Láng Hạ, Hà Nội"),
        ["số 27 ngõ 81 Láng Hạ"]
    );
    assert_eq!(
        streets("tôi ở hẻm 142/9 Nguyễn Trãi quận 5"),
        ["hẻm 142/9 Nguyễn Trãi"]
    );
    assert_eq!(streets("адрес: Садовая 8, кв. 212"), ["Садовая 8, кв. 212"]);
    assert_eq!(streets("я живу в кв. 41"), ["кв. 41"]);
    assert_eq!(
        streets("bydlím v Lipové 1234/12, 110 00 Praha 1"),
        ["Lipové 1234/12"]
    );
    assert_eq!(
        streets("μένω στην Αγίου Δημητρίου 14, 546 30 Θεσσαλονίκη"),
        ["Αγίου Δημητρίου 14"]
    );
    // A Greek name and number without a postcode after them is no address.
    assert!(streets("Η ομάδα Κ 14 παίζει αύριο").is_empty());
    assert_eq!(
        streets("stau pe Str. Lungă nr. 23, bl. A4, ap. 12"),
        ["Str. Lungă nr. 23, bl. A4, ap. 12"]
    );
    assert_eq!(
        streets("mieszkam przy ul. Polna 14 m. 6, 00-625 Warszawa"),
        ["ul. Polna 14 m. 6"]
    );
    // A Turkish house number needs its street; a double number its postcode and town; an
    // alley its number.
    assert!(streets("Sipariş No: 5512 yarın gelir").is_empty());
    assert!(streets("Faktura 2024/117 je zaplacena").is_empty());
    assert!(streets("đi qua ngõ nhỏ rồi rẽ trái").is_empty());
}
