//! Compile-time behaviour of `#[derive(MinimizeSchema)]`: what compiles, and the exact error
//! for each mistake (`tests/ui/fail/*.stderr`, pinned by the workspace toolchain).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}
