module tabserver.invalid/bench/peer-go

go 1.19
