module github.com/maxence-charriere/go-app/v10

go 1.23.0

