// Package cdpconn connects domscope to a Chromium browser over the Chrome
// DevTools Protocol. It is the only package that imports chromedp and
// cdproto. It:
//   - connects to a running browser (an http://host:port endpoint or a
//     ws:// URL) or launches one.
//   - lists and picks page targets.
//   - attaches to a tab or opens one.
//   - follows out-of-process iframe targets.
//   - detaches without closing a tab it did not open.
//
// *Browser implements dom.Browser and its pages implement dom.Page.
package cdpconn
