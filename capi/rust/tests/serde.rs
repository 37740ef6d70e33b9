//! serde: from_slice / to_vec (feature `serde`).
