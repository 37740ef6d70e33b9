//! The pull reader: zero copy (string slices are the input's own bytes),
//! item positions, indefinite strings and join, skipping, reset, threads.
mod common;

use cbor_fast::{Item, Reader, Status, Token};
use common::hex;

fn items(data: &[u8]) -> Vec<Item<'_>> {
    Reader::new(data).unwrap().map(Result::unwrap).collect()
}

/// `s` is the sub-slice of `input` starting at `at`: same address, no copy.
fn assert_borrowed(s: &[u8], input: &[u8], at: usize) {
    assert!(std::ptr::eq(s.as_ptr(), input[at..].as_ptr()), "not a view into the input at {at}");
}

#[test]
fn strings_are_slices_of_the_input() {
    // ["abc", h'0102', "", h'', "ü"]
    let input = hex("85 63 616263 42 0102 60 40 62 c3bc");
    let got = items(&input);
    let Token::Text(abc) = got[1].token else { panic!("{:?}", got[1]) };
    assert_eq!(abc, "abc");
    assert_borrowed(abc.as_bytes(), &input, 2);
    let Token::Bytes(b) = got[2].token else { panic!("{:?}", got[2]) };
    assert_eq!(b, [1, 2]);
    assert_borrowed(b, &input, 6);
    // Empty strings still point into the input, just after their head.
    let Token::Text(empty) = got[3].token else { panic!("{:?}", got[3]) };
    assert_borrowed(empty.as_bytes(), &input, 9);
    let Token::Bytes(empty) = got[4].token else { panic!("{:?}", got[4]) };
    assert_borrowed(empty, &input, 10);
    let Token::Text(u) = got[5].token else { panic!("{:?}", got[5]) };
    assert_eq!(u, "\u{fc}");
    assert_borrowed(u.as_bytes(), &input, 11);
}

#[test]
fn every_corpus_string_is_a_view_at_its_head() {
    let mut total = 0usize;
    for (name, data) in common::corpus_files() {
        let (mut strings, mut bytes) = (0usize, 0usize);
        for item in Reader::new(&data).unwrap() {
            let item = item.unwrap();
            let s = match item.token {
                Token::Text(s) => s.as_bytes(),
                Token::Bytes(b) => b,
                _ => continue,
            };
            assert_borrowed(s, &data, item.offset + item.head_size as usize);
            strings += 1;
            bytes += s.len();
        }
        assert!(strings > 0, "{name}: no strings");
        total += strings;
        println!("{name}: {strings} strings, {bytes} bytes, none copied");
    }
    assert!(total > 10_000, "{total} strings in the corpus");
}

#[test]
fn positions_depths_and_end_items() {
    // [1, [_ 2], {"a": 1.5}, 0(h'')]
    let input = hex("84 01 9f 02 ff a1 61 61 f9 3e00 c0 40");
    let got: Vec<(Token, usize, u32, u32)> =
        items(&input).into_iter().map(|i| (i.token, i.offset, i.depth, i.head_size)).collect();
    let expected = vec![
        (Token::Array(Some(4)), 0, 0, 1),
        (Token::Unsigned(1), 1, 1, 1),
        (Token::Array(None), 2, 1, 1),
        (Token::Unsigned(2), 3, 2, 1),
        // Indefinite: End at the break byte, head size 1, container's depth.
        (Token::End { brk: true }, 4, 1, 1),
        (Token::Map(Some(1)), 5, 1, 1),
        (Token::Text("a"), 6, 2, 1),
        (Token::Float { value: 1.5, width: 2 }, 8, 2, 3),
        // Definite: End after the last child, head size 0.
        (Token::End { brk: false }, 11, 1, 0),
        (Token::Tag(0), 11, 1, 1),
        (Token::Bytes(&[]), 12, 2, 1),
        (Token::End { brk: false }, 13, 0, 0),
    ];
    assert_eq!(got, expected);
}

#[test]
fn indefinite_strings_yield_chunks_or_join() {
    let input = hex("82 5f 42 0102 43 030405 ff 7f 65 7374726561 64 6d696e67 ff");
    let tokens: Vec<Token> = items(&input).into_iter().map(|i| i.token).collect();
    assert_eq!(
        tokens,
        vec![
            Token::Array(Some(2)),
            Token::BytesIndefinite,
            Token::Bytes(&[1, 2]),
            Token::Bytes(&[3, 4, 5]),
            Token::End { brk: true },
            Token::TextIndefinite,
            Token::Text("strea"),
            Token::Text("ming"),
            Token::End { brk: true },
            Token::End { brk: false },
        ]
    );

    // join() right after the start consumes the chunks and the End.
    let mut rd = Reader::new(&input).unwrap();
    rd.next_item().unwrap();
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::BytesIndefinite);
    let joined = rd.join().unwrap().to_vec();
    assert_eq!(joined, [1, 2, 3, 4, 5]);
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::TextIndefinite);
    assert_eq!(rd.join_str().unwrap(), "streaming");
    // A second join of the same item is a usage error, not sticky.
    assert_eq!(rd.join().unwrap_err().status, Status::InvalidState);
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::End { brk: false });
    assert_eq!(rd.next_item().unwrap(), None);
    rd.finish().unwrap();

    // join() after anything but next_item() (which a skip or a bulk read
    // may have read past) is a usage error: after a chunk was skipped it
    // joined nothing, Ok([]).
    let input = hex("5f 4161 4162 ff 63 616263");
    let mut rd = Reader::new(&input).unwrap();
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::BytesIndefinite);
    assert_eq!(rd.skip_item(), Ok(true));
    assert_eq!(rd.join().unwrap_err().status, Status::InvalidState);
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::Bytes(b"b"));
    rd.skip_to_end().unwrap();
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::Text("abc"));
    assert_eq!(rd.skip_item(), Ok(false));
    assert_eq!(rd.join().unwrap_err().status, Status::InvalidState);

    // join() of a definite string is its view into the input.
    let input = hex("63 616263");
    let mut rd = Reader::new(&input).unwrap();
    rd.next_item().unwrap();
    let view = rd.join().unwrap();
    assert_borrowed(view, &input, 1);
}

#[test]
fn skipping_items_and_containers() {
    // [[1, 2], {"k": [3]}, 4] then a second top-level item 5
    let input = hex("83 82 01 02 a1 61 6b 81 03 04 05");
    let mut rd = Reader::new(&input).unwrap();
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::Array(Some(3)));
    assert_eq!(rd.skip_item(), Ok(true)); // [1, 2]
    assert_eq!(rd.offset(), 4);
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::Map(Some(1)));
    assert_eq!(rd.depth(), 2);
    rd.skip_to_end().unwrap(); // rest of the map, including its End
    assert_eq!(rd.depth(), 1);
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::Unsigned(4));
    // The next thing is the array's End: skip refuses, nothing consumed.
    let e = rd.skip_item().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::InvalidState, 10));
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::End { brk: false });
    // At top level skip_to_end is a usage error; skip passes item 5.
    assert_eq!(rd.skip_to_end().unwrap_err().status, Status::InvalidState);
    assert_eq!(rd.skip_item(), Ok(true));
    assert_eq!(rd.skip_item(), Ok(false));
    rd.finish().unwrap();
    // Usage errors are not sticky.
    assert_eq!(rd.next_item(), Ok(None));
}

#[test]
fn finish_reports_open_containers_and_leftovers() {
    let input = hex("82 01");
    let mut rd = Reader::new(&input[..1]).unwrap();
    let e = rd.next_item().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::Truncated, 0));

    let input = hex("9f 01 ff 02");
    let mut rd = Reader::new(&input).unwrap();
    rd.next_item().unwrap();
    rd.next_item().unwrap();
    assert_eq!(rd.finish().unwrap_err().status, Status::InvalidState);
    rd.next_item().unwrap();
    assert_eq!(rd.finish().unwrap_err().status, Status::TrailingBytes);
}

#[test]
fn reset_moves_to_new_input_and_clears_errors() {
    let bad = hex("ff");
    let good = hex("61 7a");
    let mut rd = Reader::new(&bad).unwrap();
    assert_eq!(rd.next_item().unwrap_err().status, Status::UnexpectedBreak);
    rd.reset(&good).unwrap();
    let item = rd.next_item().unwrap().unwrap();
    assert_eq!(item.token, Token::Text("z"));
    let Token::Text(z) = item.token else { unreachable!() };
    assert_borrowed(z.as_bytes(), &good, 1);
    assert_eq!(rd.input().as_ptr(), good.as_ptr());
}

#[test]
fn utf8_errors_point_at_the_bad_byte_and_stick() {
    // Rust-side check (from_utf8): the library's strict option is off.
    let input = hex("83 61 61 64 61 62 ff 63 61");
    let mut rd = Reader::new(&input).unwrap();
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::Array(Some(3)));
    assert_eq!(rd.next_item().unwrap().unwrap().token, Token::Text("a"));
    let e = rd.next_item().unwrap_err();
    assert_eq!((e.status, e.offset), (Status::InvalidUtf8, 6));
    assert_eq!(rd.next_item().unwrap_err(), e);
    assert_eq!(rd.skip_item().unwrap_err(), e);
}

#[test]
fn readers_and_items_cross_threads() {
    let input = hex("83 01 62 6869 f5");
    let rd = Reader::new(&input).unwrap();
    // Send: the reader moves into a scoped thread; its items come back out
    // still borrowing `input`.
    let tokens = std::thread::scope(|s| {
        s.spawn(move || rd.map(|i| i.unwrap().token).collect::<Vec<_>>()).join().unwrap()
    });
    assert_eq!(tokens[2], Token::Text("hi"));
    let Token::Text(hi) = tokens[2] else { unreachable!() };
    assert_borrowed(hi.as_bytes(), &input, 3);
}
