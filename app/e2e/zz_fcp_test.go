package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestZZFCP(t *testing.T) {
	for r := 0; r < 3; r++ {
		for _, p := range []string{"/zh/lessons/03-transaction-protocols", "/lessons/03-transaction-protocols", "/zh/lessons", "/web/robots.txt"} {
			ctx, done := coldPage(t)
			tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			if err := chromedp.Do(tctx, chromedp.Navigate(baseURL+p)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1500 * time.Millisecond)
			f, _ := chromedp.Run(tctx, chromedp.Evaluate[map[string]float64](`({fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1, fp: performance.getEntriesByName("first-paint")[0]?.startTime ?? -1, resp: performance.getEntriesByType("navigation")[0].responseEnd, dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd, css: Math.max(...performance.getEntriesByType("resource").filter(e => e.name.includes(".css")).map(e => e.responseEnd))})`))
			t.Logf("%-40s %v", p, f)
			cancel()
			done()
		}
	}
}
