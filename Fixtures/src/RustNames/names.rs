// A Rust program whose symbols cover what a Rust frame in an Apple crash report can be named:
// generics, trait impls (`<T as Trait>::f`), closures, const generics, `dyn` and fn-pointer
// types, non-ASCII (punycode) identifiers and the standard library's panic path. Built twice by
// generate.sh (legacy and v0 mangling); its symbols and their oracle names are the fixture.
#![allow(dead_code)]
use std::collections::HashMap;
use std::fmt::Debug;

pub trait Shape {
    fn area(&self) -> f64;
    fn describe(&self) -> String {
        format!("area {}", self.area())
    }
}

pub struct Square<T> {
    side: T,
}

impl<T: Copy + Into<f64>> Shape for Square<T> {
    fn area(&self) -> f64 {
        let s: f64 = self.side.into();
        s * s
    }
}

pub struct Wrapper<T>(pub T);

impl<T: Debug> Wrapper<T> {
    #[inline(never)]
    pub fn show(&self) -> String {
        format!("{:?}", self.0)
    }
}

pub struct Grid<const W: usize, const H: u8>;

impl<const W: usize, const H: u8> Grid<W, H> {
    #[inline(never)]
    pub fn cells(&self) -> usize {
        W * H as usize
    }
}

pub struct Flag<const B: bool, const C: char>;

impl<const B: bool, const C: char> Flag<B, C> {
    #[inline(never)]
    pub fn get(&self) -> (bool, char) {
        (B, C)
    }
}

pub struct Signed<const N: i32>;

impl<const N: i32> Signed<N> {
    #[inline(never)]
    pub fn value(&self) -> i32 {
        N
    }
}

#[inline(never)]
pub fn grüße(name: &str) -> usize {
    name.len()
}

pub struct Größe {
    pub wert: u32,
}

impl Größe {
    #[inline(never)]
    pub fn doppelt(&self) -> u32 {
        self.wert * 2
    }
}

#[inline(never)]
pub fn apply<F: Fn(u32) -> u32>(f: F, value: u32) -> u32 {
    f(value)
}

#[inline(never)]
pub fn call_dyn(f: &dyn Fn(&str) -> usize, text: &str) -> usize {
    f(text)
}

#[inline(never)]
pub fn pick(table: &[fn(u8) -> u8], index: usize, value: u8) -> u8 {
    table[index](value)
}

fn double(x: u8) -> u8 {
    x.wrapping_mul(2)
}

#[inline(never)]
pub fn tuple_and_array(pair: (u16, i64), block: [u8; 4]) -> i64 {
    pair.0 as i64 + pair.1 + block.iter().map(|b| *b as i64).sum::<i64>()
}

#[inline(never)]
pub fn lookup<'a>(map: &'a HashMap<String, Vec<u32>>, key: &str) -> Option<&'a Vec<u32>> {
    map.get(key)
}

#[inline(never)]
pub fn crash(values: &[u32], index: usize) -> u32 {
    // Bounds check: core::panicking::panic_bounds_check when index is out of range.
    let closure = |i: usize| values[i] + 1;
    closure(index)
}

#[inline(never)]
pub fn unwrap_none(value: Option<u32>) -> u32 {
    value.expect("value was None")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = args.len();
    let square = Square { side: 3.0f32 };
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(square), Box::new(Square { side: 2u8 })];
    let mut total = 0.0;
    for shape in &shapes {
        total += shape.area();
        println!("{}", shape.describe());
    }
    println!("{} {}", total, Wrapper(vec![1, 2]).show());
    println!("{}", Grid::<4, 3>.cells());
    println!("{:?}", Flag::<true, 'λ'>.get());
    println!("{}", Signed::<-7>.value());
    println!("{} {}", grüße("welt"), Größe { wert: n as u32 }.doppelt());
    let offset = n as u32;
    println!("{}", apply(move |x| x + offset, 4));
    println!("{}", call_dyn(&|s: &str| s.len() + n, "abc"));
    let table: [fn(u8) -> u8; 1] = [double];
    println!("{}", pick(&table, 0, 21));
    println!("{}", tuple_and_array((1, -2), [1, 2, 3, 4]));
    let mut map = HashMap::new();
    map.insert("a".to_string(), vec![1]);
    println!("{:?}", lookup(&map, "a"));
    let result = std::panic::catch_unwind(|| crash(&[1, 2, 3], n + 5));
    println!("{:?}", result.is_err());
    println!("{}", unwrap_none(if n > 10 { Some(1) } else { None }));
}
