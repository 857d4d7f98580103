import Foundation

/// The value of one Prometheus sample line, e.g. `http_requests_total{route="/login",status="200"}`.
func sample(_ text: String, _ name: String, _ labels: [String: String] = [:]) -> Double? {
    for line in text.split(separator: "\n") where line.hasPrefix(name) && !line.hasPrefix("#") {
        let head = line.split(separator: " ").first.map(String.init) ?? ""
        let matches = labels.allSatisfy { head.contains("\($0.key)=\"\($0.value)\"") }
        if matches, head == name || head.hasPrefix(name + "{") {
            return line.split(separator: " ").last.flatMap { Double($0) }
        }
    }
    return nil
}
