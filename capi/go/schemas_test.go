package cborfast

import (
	"math/rand"
	"time"
)

// The corpus mapped to structs, as a Go user would write them: twitter
// partially (the fields a client reads; the rest is skipped), canada and
// citm_catalog in full.

type twitterDoc struct {
	Statuses       []twitterStatus `cbor:"statuses"`
	SearchMetadata struct {
		CompletedIn float64 `cbor:"completed_in"`
		MaxID       uint64  `cbor:"max_id"`
		MaxIDStr    string  `cbor:"max_id_str"`
		NextResults string  `cbor:"next_results"`
		Query       string  `cbor:"query"`
		RefreshURL  string  `cbor:"refresh_url"`
		Count       int     `cbor:"count"`
		SinceID     uint64  `cbor:"since_id"`
		SinceIDStr  string  `cbor:"since_id_str"`
	} `cbor:"search_metadata"`
}

type twitterStatus struct {
	Metadata struct {
		ResultType      string `cbor:"result_type"`
		IsoLanguageCode string `cbor:"iso_language_code"`
	} `cbor:"metadata"`
	CreatedAt         string      `cbor:"created_at"`
	ID                uint64      `cbor:"id"`
	IDStr             string      `cbor:"id_str"`
	Text              string      `cbor:"text"`
	Source            string      `cbor:"source"`
	Truncated         bool        `cbor:"truncated"`
	InReplyToStatusID *uint64     `cbor:"in_reply_to_status_id"`
	InReplyToUserID   *uint64     `cbor:"in_reply_to_user_id"`
	InReplyToScreen   *string     `cbor:"in_reply_to_screen_name"`
	User              twitterUser `cbor:"user"`
	RetweetCount      int         `cbor:"retweet_count"`
	FavoriteCount     int         `cbor:"favorite_count"`
	Favorited         bool        `cbor:"favorited"`
	Retweeted         bool        `cbor:"retweeted"`
	Lang              string      `cbor:"lang"`
}

type twitterUser struct {
	ID             uint64 `cbor:"id"`
	IDStr          string `cbor:"id_str"`
	Name           string `cbor:"name"`
	ScreenName     string `cbor:"screen_name"`
	Location       string `cbor:"location"`
	Description    string `cbor:"description"`
	Protected      bool   `cbor:"protected"`
	FollowersCount int    `cbor:"followers_count"`
	FriendsCount   int    `cbor:"friends_count"`
	ListedCount    int    `cbor:"listed_count"`
	CreatedAt      string `cbor:"created_at"`
	Favourites     int    `cbor:"favourites_count"`
	Verified       bool   `cbor:"verified"`
	StatusesCount  int    `cbor:"statuses_count"`
	Lang           string `cbor:"lang"`
}

type canadaDoc struct {
	Type     string `cbor:"type"`
	Features []struct {
		Type       string `cbor:"type"`
		Properties struct {
			Name string `cbor:"name"`
		} `cbor:"properties"`
		Geometry struct {
			Type        string         `cbor:"type"`
			Coordinates [][][2]float64 `cbor:"coordinates"`
		} `cbor:"geometry"`
	} `cbor:"features"`
}

type citmDoc struct {
	AreaNames                map[string]string    `cbor:"areaNames"`
	AudienceSubCategoryNames map[string]string    `cbor:"audienceSubCategoryNames"`
	BlockNames               map[string]string    `cbor:"blockNames"`
	Events                   map[string]citmEvent `cbor:"events"`
	Performances             []citmPerformance    `cbor:"performances"`
	SeatCategoryNames        map[string]string    `cbor:"seatCategoryNames"`
	SubTopicNames            map[string]string    `cbor:"subTopicNames"`
	SubjectNames             map[string]string    `cbor:"subjectNames"`
	TopicNames               map[string]string    `cbor:"topicNames"`
	TopicSubTopics           map[string][]int     `cbor:"topicSubTopics"`
	VenueNames               map[string]string    `cbor:"venueNames"`
}

type citmEvent struct {
	Description any     `cbor:"description"`
	ID          int     `cbor:"id"`
	Logo        *string `cbor:"logo"`
	Name        string  `cbor:"name"`
	SubTopicIDs []int   `cbor:"subTopicIds"`
	SubjectCode any     `cbor:"subjectCode"`
	Subtitle    any     `cbor:"subtitle"`
	TopicIDs    []int   `cbor:"topicIds"`
}

type citmPerformance struct {
	EventID int     `cbor:"eventId"`
	ID      int     `cbor:"id"`
	Logo    *string `cbor:"logo"`
	Name    any     `cbor:"name"`
	Prices  []struct {
		Amount                int `cbor:"amount"`
		AudienceSubCategoryID int `cbor:"audienceSubCategoryId"`
		SeatCategoryID        int `cbor:"seatCategoryId"`
	} `cbor:"prices"`
	SeatCategories []struct {
		Areas []struct {
			AreaID   int   `cbor:"areaId"`
			BlockIDs []int `cbor:"blockIds"`
		} `cbor:"areas"`
		SeatCategoryID int `cbor:"seatCategoryId"`
	} `cbor:"seatCategories"`
	SeatMapImage any    `cbor:"seatMapImage"`
	Start        int64  `cbor:"start"`
	VenueCode    string `cbor:"venueCode"`
}

// coseKey is a COSE_Key-like record (RFC 9052): small integer keys.
type coseKey struct {
	Kty    int    `cbor:"1,keyasint"`
	Kid    []byte `cbor:"2,keyasint,omitempty"`
	Alg    int    `cbor:"3,keyasint,omitempty"`
	KeyOps []int  `cbor:"4,keyasint,omitempty"`
	Crv    int    `cbor:"-1,keyasint"`
	X      []byte `cbor:"-2,keyasint"`
	Y      []byte `cbor:"-3,keyasint,omitempty"`
	Label  string `cbor:"-4,keyasint,omitempty"`
}

func coseRecords(n int, seed int64) []coseKey {
	r := rand.New(rand.NewSource(seed))
	out := make([]coseKey, n)
	for i := range out {
		k := &out[i]
		k.Kty = 1 + r.Intn(4)
		k.Kid = randBytes(r, 8+r.Intn(9))
		k.Alg = -7 - r.Intn(40)
		if r.Intn(2) == 0 {
			k.KeyOps = []int{1, 2}
		}
		k.Crv = 1 + r.Intn(7)
		k.X = randBytes(r, 32)
		if k.Kty == 2 {
			k.Y = randBytes(r, 32)
		}
		if r.Intn(3) == 0 {
			k.Label = "key-" + time.Unix(int64(r.Intn(1<<30)), 0).UTC().Format("20060102")
		}
	}
	return out
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}
