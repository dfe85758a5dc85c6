import Mustache
import Synchronization

/// Views answer template lookups by a switch (`MustacheParent`), which is faster than reflection
/// but can miss a field added later. In debug builds (every test run) each page rendered is walked
/// before it is drawn: every view in it that answers lookups itself must answer each of its stored
/// fields with the value reflection sees, and nothing for a name it does not have. Each page type is
/// checked on its first few renders, so a field that is nil at first is still seen set.
enum LookupCheck {
    #if DEBUG
        private static let checked = Mutex<[ObjectIdentifier: Int]>([:])
        private static let rendersChecked = 20

        /// Walks a page's first renders (per page type); later ones are drawn unchecked.
        static func check(page: Any) {
            let first = checked.withLock { counts in
                counts[ObjectIdentifier(type(of: page)), default: 0] += 1
                return counts[ObjectIdentifier(type(of: page))]! <= rendersChecked
            }
            if first { walk(page, depth: 0) }
        }

        /// Views are values nested a few deep; classes (a renderer a page holds) are not views.
        private static func walk(_ value: Any, depth: Int) {
            let mirror = Mirror(reflecting: value)
            guard depth < 8, mirror.displayStyle != .class else { return }
            if let view = value as? MustacheParent {
                for child in mirror.children {
                    guard let label = child.label else { continue }
                    let answered = view.child(named: label).map { String(describing: $0) }
                    let reflected = unwrapped(child.value).map { String(describing: $0) }
                    precondition(answered == reflected, "\(type(of: value)).child(named: \"\(label)\") does not answer its field")
                }
                precondition(view.child(named: "no such name") == nil, "\(type(of: value)) answers a name it does not have")
            }
            for child in mirror.children { if let inner = unwrapped(child.value) { walk(inner, depth: depth + 1) } }
        }

        private static func unwrapped(_ value: Any) -> Any? {
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { return value }
            return mirror.children.first?.value
        }
    #else
        @inline(__always) static func check(page: Any) {}
    #endif
}
