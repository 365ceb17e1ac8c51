use toolminimize::MinimizeSchema;

#[derive(MinimizeSchema)]
struct Forecast {
    #[minimize(necessary)]
    city: String,
}

fn main() {}
