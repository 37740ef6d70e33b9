package cborfast_test

import (
	"fmt"
	"io"

	"libcbor_fast/cborfast"
)

func Example() {
	data, err := cborfast.Encode(map[string]any{"name": "cbor", "tags": []any{1, -2, 1.5}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", data)

	v, err := cborfast.Decode(data)
	if err != nil {
		panic(err)
	}
	m := v.(cborfast.Map)
	name, _ := m.Get("name")
	tags, _ := m.Get("tags")
	fmt.Println(name, tags)

	_, err = cborfast.Decode(data[:5])
	fmt.Println(err)
	// Output:
	// a2646e616d656463626f726474616773830121f93e00
	// cbor [1 -2 1.5]
	// cborfast: unexpected end of input (truncated) at offset 1
}

func ExampleReader() {
	data := []byte{0x82, 0x63, 'a', 'b', 'c', 0xf5}
	r := cborfast.NewReader(data)
	defer r.Close()
	for {
		it, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("depth %d %s at %d %q\n", it.Depth, it.Type, it.Offset, it.Data)
	}
	// Output:
	// depth 0 array at 0 ""
	// depth 1 text at 1 "abc"
	// depth 1 bool at 5 ""
	// depth 0 end at 6 ""
}

func ExampleSequence() {
	q := cborfast.NewSequence([]byte{0x01, 0x61, 'x', 0xf6})
	defer q.Close()
	for {
		v, err := q.Next()
		if err == io.EOF {
			break
		}
		fmt.Printf("%#v %v\n", v, err)
	}
	// Output:
	// 0x1 <nil>
	// "x" <nil>
	// <nil> <nil>
}
