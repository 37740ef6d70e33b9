module libcbor_fast/cborfast

go 1.22
