module txnlab

go 1.26.8
