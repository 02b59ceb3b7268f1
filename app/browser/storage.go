package browser

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// SetItem keeps value under key in the browser's localStorage where the
// browser allows it; a refusal (storage disabled, over quota) only means
// nothing is kept.
func SetItem(key, value string) {
	defer func() { recover() }()
	if st := storage(); st.Truthy() {
		st.Call("setItem", key, value)
	}
}

// RemoveItem forgets key, where the browser allows it.
func RemoveItem(key string) {
	defer func() { recover() }()
	if st := storage(); st.Truthy() {
		st.Call("removeItem", key)
	}
}

// GetItem is the value kept under key; "" when none is, or the browser
// refuses.
func GetItem(key string) string {
	defer func() { recover() }()
	if st := storage(); st.Truthy() {
		if v := st.Call("getItem", key); v.Truthy() {
			return v.String()
		}
	}
	return ""
}

// storage is window.localStorage, or undefined where reading it
// throws (storage disabled), which a plain Get would turn into a panic.
func storage() (v app.Value) {
	defer func() {
		if recover() != nil {
			v = app.Undefined()
		}
	}()
	return app.Window().Get("localStorage")
}
