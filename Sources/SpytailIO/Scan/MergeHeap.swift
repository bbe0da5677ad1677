/// The files' next times, smallest first; equal times by the file's place in the list.
struct MergeHeap {
    private var items: [(time: Int64, cursor: Int)] = []

    private static func less(_ a: (time: Int64, cursor: Int), _ b: (time: Int64, cursor: Int)) -> Bool {
        a.time != b.time ? a.time < b.time : a.cursor < b.cursor
    }

    mutating func push(time: Int64, cursor: Int) {
        items.append((time, cursor))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.less(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popMin() -> Int? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var least = parent
                if left < items.count && Self.less(items[left], items[least]) { least = left }
                if right < items.count && Self.less(items[right], items[least]) { least = right }
                if least == parent { break }
                items.swapAt(parent, least)
                parent = least
            }
        }
        return first.cursor
    }
}
