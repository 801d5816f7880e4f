// SPDX-License-Identifier: Apache-2.0

// The Go peer of bench/bench.py: the standard library only (net/http, html/template),
// serving what TabServer serves for the tab page of a visitor with a session and for the
// select post. Sessions are server-side, in a map behind a mutex (one process: Go's
// runtime uses both cores); nothing is durable.
//
//	GET  /tabs/<tab>   the page (template made from TabServer's own page by
//	                   bench/peer/make_template.py, Go flavour); a visitor without a
//	                   session gets one
//	POST /select       form fields tab, csrf, return: the posted token must be the
//	                   session's; the session's selected tab changes; 303 to /tabs/<tab>
//	GET  /healthz      "ok"
//
// Usage: peer-go -addr 127.0.0.1:PORT -templates DIR (DIR holds page.html and tabs.json).
package main

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"flag"
	"html/template"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

const cookieName = "tabserver_session"
const maxAge = 15552000

// The headers TabServer sends with a page and with a redirect.
var securityHeaders = map[string]string{
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "same-origin",
	"X-Frame-Options":         "DENY",
	"Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
}

type session struct {
	selected string
	csrf     string
}

type store struct {
	mu       sync.Mutex
	sessions map[string]session
}

func (s *store) get(id string) (session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	found, ok := s.sessions[id]
	return found, ok
}

func (s *store) put(id string, value session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessions[id] = value
}

func token() string {
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(raw)
}

type pageData struct {
	Heading  string
	Selected string
	CSRF     string
}

type peer struct {
	page     *template.Template
	titles   map[string]string
	sessions store
	buffers  sync.Pool
}

func (p *peer) tabPage(w http.ResponseWriter, r *http.Request) {
	tab := strings.TrimPrefix(r.URL.Path, "/tabs/")
	title, known := p.titles[tab]
	if !known || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	var id string
	var current session
	found := false
	if cookie, err := r.Cookie(cookieName); err == nil {
		id = cookie.Value
		current, found = p.sessions.get(id)
	}
	if !found {
		id, current = token(), session{selected: tab, csrf: token()}
		p.sessions.put(id, current)
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, MaxAge: maxAge, Path: "/", HttpOnly: true,
			SameSite: http.SameSiteLaxMode})
	} else if current.selected != tab { // opening a tab's page selects it, as in TabServer
		current.selected = tab
		p.sessions.put(id, current)
	}
	buffer := p.buffers.Get().(*bytes.Buffer)
	defer p.buffers.Put(buffer)
	buffer.Reset()
	if err := p.page.Execute(buffer, pageData{Heading: title, Selected: tab, CSRF: current.csrf}); err != nil {
		http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		return
	}
	header := w.Header()
	for name, value := range securityHeaders {
		header.Set(name, value)
	}
	header.Set("Content-Type", "text/html; charset=utf-8")
	header.Set("Cache-Control", "private, no-cache")
	header.Set("Vary", "Accept-Encoding")
	header.Set("Content-Length", strconv.Itoa(buffer.Len()))
	w.Write(buffer.Bytes())
}

func (p *peer) selectTab(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 16*1024)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "Bad Request: malformed form", http.StatusBadRequest)
		return
	}
	cookie, err := r.Cookie(cookieName)
	if err != nil {
		http.Error(w, "Forbidden: the form is stale; reload the page", http.StatusForbidden)
		return
	}
	current, found := p.sessions.get(cookie.Value)
	if !found || subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(current.csrf)) != 1 {
		http.Error(w, "Forbidden: the form is stale; reload the page", http.StatusForbidden)
		return
	}
	tab := r.PostForm.Get("tab")
	if _, known := p.titles[tab]; !known {
		http.Error(w, "Bad Request: no such tab", http.StatusBadRequest)
		return
	}
	current.selected = tab
	p.sessions.put(cookie.Value, current)
	header := w.Header()
	for name, value := range securityHeaders {
		header.Set(name, value)
	}
	header.Set("Cache-Control", "no-store")
	header.Set("Location", "/tabs/"+tab)
	header.Set("Content-Length", "0")
	w.WriteHeader(http.StatusSeeOther)
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "the address to listen on")
	templates := flag.String("templates", "templates", "the folder of page.html and tabs.json")
	flag.Parse()
	page, err := template.ParseFiles(filepath.Join(*templates, "page.html"))
	if err != nil {
		log.Fatalf("peer-go: %v", err)
	}
	raw, err := os.ReadFile(filepath.Join(*templates, "tabs.json"))
	if err != nil {
		log.Fatalf("peer-go: %v", err)
	}
	var tabs []struct{ ID, Title string }
	if err := json.Unmarshal(raw, &tabs); err != nil {
		log.Fatalf("peer-go: tabs.json: %v", err)
	}
	p := &peer{page: page, titles: map[string]string{}, sessions: store{sessions: map[string]session{}}}
	p.buffers.New = func() any { return new(bytes.Buffer) }
	for _, tab := range tabs {
		p.titles[tab.ID] = tab.Title
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/tabs/", p.tabPage)
	mux.HandleFunc("/select", p.selectTab)
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	server := &http.Server{Addr: *addr, Handler: mux}
	log.Fatal(server.ListenAndServe())
}
