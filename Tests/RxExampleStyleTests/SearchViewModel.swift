// A search form's view model in the style of RxSwift's example apps, importing only RxSwift
// and RxCocoa: the Foundation it uses (CharacterSet, URL, Date, trimming) comes with RxCocoa.
import RxSwift
import RxCocoa

/// Finds repositories by name.
public protocol RepositorySearchAPI {
    func repositories(matching query: String) -> Observable<[String]>
}

/// What the page shows for a query.
public enum SearchState: Equatable {
    case idle
    case invalid(reason: String)
    case results([String], searchedAt: Date)
}

public struct RepositorySearchViewModel {
    public let state: Driver<SearchState>
    public let searching: Driver<Bool>

    public init(query: Driver<String>, api: RepositorySearchAPI, now: @escaping () -> Date) {
        let indicator = BusyIndicator()
        searching = indicator.asDriver()
        state = query
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .distinctUntilChanged()
            .flatMapLatest { text -> Driver<SearchState> in
                if text.isEmpty { return .just(.idle) }
                if text.rangeOfCharacter(from: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_")).inverted) != nil {
                    return .just(.invalid(reason: "Only letters, digits, - and _"))
                }
                guard URL(string: "https://example.com/search?q=\(text)") != nil else {
                    return .just(.invalid(reason: "Not a query"))
                }
                return api.repositories(matching: text)
                    .trackBusy(indicator)
                    .map { SearchState.results($0, searchedAt: now()) }
                    .asDriver(onErrorJustReturn: .invalid(reason: "Search failed"))
            }
    }
}
