//! Typed views of the shared corpus for serde (tests and the serde benchmark
//! include this file): twitter (a partial schema: unknown fields are skipped),
//! citm_catalog (full schema) and canada (full schema), plus a borrowing
//! twitter variant whose string fields are slices of the input.
#![allow(dead_code)]
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Twitter {
    pub statuses: Vec<Status>,
    pub search_metadata: SearchMetadata,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Status {
    pub created_at: String,
    pub id: u64,
    pub id_str: String,
    pub text: String,
    pub source: String,
    pub truncated: bool,
    pub in_reply_to_status_id: Option<u64>,
    pub in_reply_to_user_id: Option<u64>,
    pub in_reply_to_screen_name: Option<String>,
    pub user: User,
    pub retweet_count: u64,
    pub favorite_count: u64,
    pub favorited: bool,
    pub retweeted: bool,
    pub lang: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct User {
    pub id: u64,
    pub id_str: String,
    pub name: String,
    pub screen_name: String,
    pub location: String,
    pub description: String,
    pub url: Option<String>,
    pub protected: bool,
    pub followers_count: u64,
    pub friends_count: u64,
    pub listed_count: u64,
    pub created_at: String,
    pub favourites_count: u64,
    pub utc_offset: Option<i64>,
    pub time_zone: Option<String>,
    pub geo_enabled: bool,
    pub verified: bool,
    pub statuses_count: u64,
    pub lang: String,
    pub profile_image_url: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct SearchMetadata {
    pub completed_in: f64,
    pub max_id: u64,
    pub max_id_str: String,
    pub next_results: String,
    pub query: String,
    pub refresh_url: String,
    pub count: u64,
    pub since_id: u64,
    pub since_id_str: String,
}

/// `Twitter` with every string field borrowed from the input.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct TwitterRef<'a> {
    #[serde(borrow)]
    pub statuses: Vec<StatusRef<'a>>,
    #[serde(borrow)]
    pub search_metadata: SearchMetadataRef<'a>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct StatusRef<'a> {
    pub created_at: &'a str,
    pub id: u64,
    pub id_str: &'a str,
    pub text: &'a str,
    pub source: &'a str,
    pub truncated: bool,
    pub in_reply_to_status_id: Option<u64>,
    pub in_reply_to_user_id: Option<u64>,
    #[serde(borrow)]
    pub in_reply_to_screen_name: Option<&'a str>,
    #[serde(borrow)]
    pub user: UserRef<'a>,
    pub retweet_count: u64,
    pub favorite_count: u64,
    pub favorited: bool,
    pub retweeted: bool,
    pub lang: &'a str,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct UserRef<'a> {
    pub id: u64,
    pub id_str: &'a str,
    pub name: &'a str,
    pub screen_name: &'a str,
    pub location: &'a str,
    pub description: &'a str,
    #[serde(borrow)]
    pub url: Option<&'a str>,
    pub protected: bool,
    pub followers_count: u64,
    pub friends_count: u64,
    pub listed_count: u64,
    pub created_at: &'a str,
    pub favourites_count: u64,
    pub utc_offset: Option<i64>,
    #[serde(borrow)]
    pub time_zone: Option<&'a str>,
    pub geo_enabled: bool,
    pub verified: bool,
    pub statuses_count: u64,
    pub lang: &'a str,
    pub profile_image_url: &'a str,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct SearchMetadataRef<'a> {
    pub completed_in: f64,
    pub max_id: u64,
    pub max_id_str: &'a str,
    pub next_results: &'a str,
    pub query: &'a str,
    pub refresh_url: &'a str,
    pub count: u64,
    pub since_id: u64,
    pub since_id_str: &'a str,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Citm {
    pub area_names: BTreeMap<String, String>,
    pub audience_sub_category_names: BTreeMap<String, String>,
    pub block_names: BTreeMap<String, String>,
    pub events: BTreeMap<String, Event>,
    pub performances: Vec<Performance>,
    pub seat_category_names: BTreeMap<String, String>,
    pub sub_topic_names: BTreeMap<String, String>,
    pub subject_names: BTreeMap<String, String>,
    pub topic_names: BTreeMap<String, String>,
    pub topic_sub_topics: BTreeMap<String, Vec<u64>>,
    pub venue_names: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub description: Option<String>,
    pub id: u64,
    pub logo: Option<String>,
    pub name: String,
    pub sub_topic_ids: Vec<u64>,
    pub subject_code: Option<String>,
    pub subtitle: Option<String>,
    pub topic_ids: Vec<u64>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Performance {
    pub event_id: u64,
    pub id: u64,
    pub logo: Option<String>,
    pub name: Option<String>,
    pub prices: Vec<Price>,
    pub seat_categories: Vec<SeatCategory>,
    pub seat_map_image: Option<String>,
    pub start: u64,
    pub venue_code: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Price {
    pub amount: u64,
    pub audience_sub_category_id: u64,
    pub seat_category_id: u64,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct SeatCategory {
    pub areas: Vec<Area>,
    pub seat_category_id: u64,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Area {
    pub area_id: u64,
    pub block_ids: Vec<u64>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Canada {
    #[serde(rename = "type")]
    pub kind: String,
    pub features: Vec<Feature>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Feature {
    #[serde(rename = "type")]
    pub kind: String,
    pub properties: Properties,
    pub geometry: Geometry,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Properties {
    pub name: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Geometry {
    #[serde(rename = "type")]
    pub kind: String,
    pub coordinates: Vec<Vec<(Num, Num)>>,
}

/// A JSON number: canada's coordinates are floats, except where the JSON
/// text had no fraction (`47`): cbor2 wrote those as integers. serde_cbor
/// and this crate read an integer into `f64`, ciborium and minicbor-serde
/// do not, so the field takes either through `deserialize_any`.
#[derive(Serialize, Debug, PartialEq, Clone, Copy)]
#[serde(transparent)]
pub struct Num(pub f64);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Num;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Num, E> {
                Ok(Num(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Num, E> {
                Ok(Num(v as f64))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Num, E> {
                Ok(Num(v as f64))
            }
        }
        d.deserialize_any(V)
    }
}
