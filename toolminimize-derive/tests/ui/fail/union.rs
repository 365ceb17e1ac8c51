use toolminimize::MinimizeSchema;

#[derive(MinimizeSchema)]
union Bits {
    word: u32,
    bytes: [u8; 4],
}

fn main() {}
