import Mustache

// A watch's nil field (no stars, no note) is looked up again in the views around it, up to the
// page: the title pages' diary and the diary page answer by a switch, as `WatchView` does
// (`PageViewLookupTests` keeps the answers equal to reflection's).

extension TitleDiaryView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "actionURL": actionURL
        case "returnTo": returnTo
        case "title": title
        case "today": today
        case "latest": latest
        case "ratingOptions": ratingOptions
        case "watches": watches
        case "hasWatches": hasWatches
        case "submitLabel": submitLabel
        default: nil
        }
    }
}

extension DiaryPageView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "months": months
        case "count": count
        case "pager": pager
        case "listsURL": listsURL
        case "statsURL": statsURL
        default: nil
        }
    }
}

extension DiaryPageView.Month: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "heading": heading
        case "watches": watches
        default: nil
        }
    }
}
