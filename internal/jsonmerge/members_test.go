package jsonmerge

import (
	"reflect"
	"testing"
)

func TestMembers(t *testing.T) {
	tr, err := Read([]byte("{\"s\": {\"b\": 1,\n  \"a\": [2], \"b\": 3}}"), Syntax{})
	if err != nil {
		t.Fatal(err)
	}
	got := tr.Members([]string{"s"})
	want := []Member{{Name: "a", Line: 2, Col: 8}, {Name: "b", Line: 2, Col: 18}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Members: %+v, want %+v", got, want)
	}
	if tr.Members([]string{"s", "a"}) != nil || tr.Members([]string{"x"}) != nil {
		t.Fatal("Members of an array or of nothing should be nil")
	}
}
