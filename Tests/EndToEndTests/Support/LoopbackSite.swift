import Foundation

/// A web site on loopback that writes down every request it is sent, by
/// address (`http://site.example/watch?v=1`): the witness of whether a
/// browser reached the site. Reached directly (Chromium's host-resolver
/// rules) or as an HTTP proxy (Firefox's profile), it answers the same page.
final class LoopbackSite: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var logged: [String] = []

    /// The addresses asked for so far, in order.
    var requests: [String] { lock.withLock { logged } }

    /// The addresses asked for on `host` (a proxy also sees the browser's own traffic).
    func requests(on host: String) -> [String] {
        requests.filter { $0.hasPrefix("http://\(host)/") || $0.hasPrefix("http://\(host):") }
    }

    /// The pages asked for on `host`: what a visit fetches, not the site's
    /// worker script, its icon or a redirect on the way.
    func pages(on host: String) -> [String] {
        requests(on: host).filter { !$0.contains("/miga-worker.js") && !$0.hasSuffix("/favicon.ico") && !$0.contains("/miga-redirect?") }
    }

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 64) == 0 else { throw SpawnFailure(executable: "the loopback site", code: errno) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }

    private func acceptLoop() {
        while true {
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            // A browser opens connections it may never use: each is read apart.
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var head: [UInt8] = []
        let deadline = Date() + 20
        while !head.containsSequence(Array("\r\n\r\n".utf8)), Date() < deadline, head.count < 65_536 {
            guard let chunk = readAvailable(client, timeout: 1) else { continue }
            if chunk.isEmpty { return }
            head += chunk
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return }
        let target = String(requestLine[1])
        let host = lines.first { $0.lowercased().hasPrefix("host:") }.map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) } ?? "?"
        let address = target.hasPrefix("http://") ? target : "http://\(host)\(target)"
        lock.withLock { logged.append(address) }
        let path = target.hasPrefix("http://") ? String(target.dropFirst("http://".count).drop { $0 != "/" }) : target
        // `/miga-redirect?to=PATH`: the site sends the browser on to PATH, on the same host, as it is written.
        if path.hasPrefix("/miga-redirect?to="), let to = path.range(of: "?to=") {
            let response = "HTTP/1.1 302 Found\r\nLocation: \(path[to.upperBound...])\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            _ = sendAll(client, Array(response.utf8))
            return
        }
        let (type, body) = path.hasPrefix("/miga-worker.js")
            ? ("text/javascript", Self.worker)
            : ("text/html; charset=utf-8", "<!doctype html><title>The site</title><p id=\"site\">The site itself.</p>"
                + Self.registration)
        let response = "HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n" + body
        _ = sendAll(client, Array(response.utf8))
    }

    /// The page registers the site's service worker (where the browser lets
    /// a worker run: a secure context) and keeps itself in the site's cache
    /// for it; `document.body.dataset.worker` says "ready" once both are done.
    static let registration = """
        <script>
        if (navigator.serviceWorker) navigator.serviceWorker.register('/miga-worker.js')
          .then(() => navigator.serviceWorker.ready)
          .then(() => caches.open('miga-test'))
          .then((cache) => cache.put('/kept-page', new Response('<!doctype html><title>The site</title>'
            + '<p id="site">The site itself.</p><p id="answered">by its worker</p>', { headers: { 'Content-Type': 'text/html' } })))
          .then(() => { document.body.dataset.worker = 'ready'; }, (error) => { document.body.dataset.worker = String(error); });
        </script>
        """

    /// The site's service worker, as app-like sites have one: it answers every
    /// visit itself from the site's cache, asking the site only when nothing
    /// is kept, so that a visit it answers reaches no server and no redirect rule.
    static let worker = """
        self.addEventListener('install', () => { self.skipWaiting(); });
        self.addEventListener('activate', (event) => { event.waitUntil(self.clients.claim()); });
        self.addEventListener('fetch', (event) => {
          if (event.request.mode !== 'navigate') return;
          event.respondWith(caches.open('miga-test').then((cache) => cache.match('/kept-page'))
            .then((kept) => kept || fetch(event.request)));
        });
        """
}
