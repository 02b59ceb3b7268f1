//go:build !wasm

package server

// The server's refusals in the reader's language. A page a reader typed or
// followed under /zh/ is refused in Chinese, every other one in English:
// the address is the only sign of a language the server has before any
// page has run (the site's language control moves between the /zh/ and
// plain twins of every page).

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// refusal is one reason the server refuses a request, in English and in
// Chinese; its text starts with the status code so that a reader of a bare
// terminal (curl) sees what happened without the headers.
type refusal struct{ en, zh string }

var (
	refuseMethod = refusal{
		"405 method not allowed: this server only serves the site (GET and HEAD)",
		"405 不允许的方法：这个服务器只提供网站的页面（GET 和 HEAD）"}
	refuseBodyFmt = refusal{
		"413 request body over %d bytes",
		"413 请求体超过 %d 字节"}
	refuseMalformed = refusal{
		"400 bad request: the address is not one a browser can send as it is (a % must be followed by two hexadecimal digits, and no space or control character may appear); check the link",
		"400 错误的请求：这个地址无法原样发送（% 后面必须跟两位十六进制数字，也不能含空格或控制字符）；请检查链接"}
	refuseHeaders = refusal{
		"431 request header fields too large",
		"431 请求头过大"}
)

// badPathReasons are badPath's reasons in Chinese, keyed by the English.
var badPathReasons = map[string]string{
	"must start with /":                         "必须以 / 开头",
	"backslashes and NUL bytes are not allowed": "不允许反斜杠和 NUL 字节",
	`".." segments are not allowed`:             "不允许 “..” 路径段",
}

// chinese reports whether a request path is a Chinese page's.
func chinese(path string) bool { return path == "/zh" || strings.HasPrefix(path, "/zh/") }

// in is the refusal's text for a request to path, with args for its verbs.
func (f refusal) in(path string, args ...any) string {
	text := f.en
	if chinese(path) {
		text = f.zh
	}
	if len(args) > 0 {
		text = fmt.Sprintf(text, args...)
	}
	return text
}

// refuse answers a refusal as http.Error does, in the language of r's path.
func refuse(w http.ResponseWriter, r *http.Request, status int, f refusal, args ...any) {
	http.Error(w, f.in(r.URL.Path, args...), status)
}

// refuseBadPath answers badPath's reason, translated for a Chinese page.
func refuseBadPath(w http.ResponseWriter, r *http.Request, reason string) {
	if zh, ok := badPathReasons[reason]; ok && chinese(r.URL.Path) {
		http.Error(w, "400 错误的路径："+zh, http.StatusBadRequest)
		return
	}
	http.Error(w, "400 bad path: "+reason, http.StatusBadRequest)
}

// ---- requests net/http refuses before any handler runs -------------------

// goRefusalTail ends the status line of net/http begins the answer it writes by itself to a
// request it cannot parse (a malformed address such as /zh/lessons/%%, a
// header block too large), straight on the connection and in English:
// these two headers and no other, which no answer of this server's
// handlers has (each carries the security headers).
const goRefusalTail = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// translateGoRefusal rewrites such an answer in the language of target,
// the address the refused request named (as far as it could be read), or
// returns nil when p is not one.
func translateGoRefusal(p []byte, target string) []byte {
	if !bytes.HasPrefix(p, []byte("HTTP/1.1 4")) {
		return nil
	}
	i := bytes.Index(p, []byte(goRefusalTail))
	if i < 0 || bytes.IndexByte(p[:i], '\n') >= 0 {
		return nil // another header before these: a handler's answer
	}
	code, err := strconv.Atoi(string(p[len("HTTP/1.1 ") : len("HTTP/1.1 ")+3]))
	if err != nil {
		return nil
	}
	var body string
	switch code {
	case http.StatusBadRequest:
		body = refuseMalformed.in(target)
	case http.StatusRequestHeaderFieldsTooLarge:
		body = refuseHeaders.in(target)
	default:
		return nil // 501 for an unknown transfer coding and the like: left as Go says it
	}
	body += "\n"
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\n"+
		"Content-Length: %d\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n%s",
		code, http.StatusText(code), len(body), body)
}

// requestTarget is the address of the request line at the start of p (a
// read from a connection), or "" if p does not start with one: enough to
// tell the language of a request that net/http will refuse, without
// parsing HTTP twice.
func requestTarget(p []byte) string {
	sp := bytes.IndexByte(p, ' ')
	if sp <= 0 || sp > 8 {
		return ""
	}
	for _, c := range p[:sp] {
		if c < 'A' || c > 'Z' {
			return ""
		}
	}
	rest := p[sp+1:]
	if end := bytes.IndexAny(rest, " \r\n"); end >= 0 {
		rest = rest[:end]
	}
	return string(rest[:min(len(rest), 64)])
}
