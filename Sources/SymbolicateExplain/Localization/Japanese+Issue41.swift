// Japanese sentences of issue 41: the same keys and placeholders as English+Issue41.swift.

extension Catalog {
    static let japaneseIssue41: [PhraseKey: String] = [
        .uiMatched: "一致: {id}",
        .kindPanicFamily: "カーネルパニックの系統",
        .kindMemoryLimit: "プロセスのメモリ上限",
        .provenanceProjectDocumentation: "コードを持つプロジェクトのドキュメントに記載",
        .verdictRustPanic: "Rust のパニックです: {title}{message}{site}。",
        .wordRustPanicMessage: "（\"{message}\"）",
        .wordRustPanicAt: "、発生箇所 {location}",
        .wordRustPanicIn: "、{function} の中",
        .noteRustPanicMachinery: "Rust のパニック処理です。Rust のコードがパニックしたためプロセスが止まりました",
        .noteRustPanicKind: "パニックした関数です: {kind}",
        .noteRustPanicLine: "Rust ランタイム自身の行です。パニックの発生箇所とメッセージを示します",
        .noteRustMessageMissing:
            "レポートにはパニックのメッセージがありません。Rust ランタイムはメッセージを標準エラー出力に書きます（'thread … panicked at …'）が、クラッシュレポートはそれを残しません。",
        .noteRustFirstOwnFrame: "クレート自身のコードで最初のフレーム（core、std、alloc より先）",
        .stepOpenRustPanicLocation: "{location} を開いてください。Rust ランタイムによると、そこでパニックが発生しました",
        .stepRustBacktrace:
            "環境変数 RUST_BACKTRACE=1（または full）を付けてもう一度実行してください。Rust ランタイムがパニックのメッセージとバックトレースを標準エラー出力に書きます",
        .stepRustFFIBoundary:
            "Swift、Objective-C、C から Rust を呼ぶ箇所では、すべての extern \"C\" 関数で std::panic::catch_unwind によりパニックを捕まえてエラーを返すか、panic = \"abort\" でビルドして、パニックが起きたその場で止まるようにしてください",
        .stepRustCatchAtBoundary:
            "すべての extern \"C\" 関数の本体を std::panic::catch_unwind で包み、呼び出し側が確かめるエラーを返してください。パニックはそこから巻き戻せないため、Rust はプロセスを中断します",
        .fieldReportLine: "{line} 行目",
        .verdictKernelPanicFamily: "カーネルパニックです: {title}: {message}",
        .verdictKernelPanicFamilySubject: "カーネルパニックです: {title}（{subject}）: {message}",
        .notePanicFamily: "{title}（系統 {id}）",
        .fieldPanickedTask: "パニック時のタスク",
        .noteThirdPartyKext: "Apple のものではありません。最初に疑う対象です",
        .stepRemoveKext: "{kext} を更新するか取り除き、パニックが止まるか確かめてください",
        .verdictMemoryLimitKind: "メモリ上限です: {name} はメモリ使用量のために終了させられました{footprint}。{kind}。{limit}。",
        .fieldProcessKind: "プロセスの種類",
        .quoteProcessKind: "{kind}（{shownBy}）",
        .wordKindFromPath: "パス {path} から判断",
        .wordKindFromExtensionPoint: "拡張ポイント {point} から判断",
        .wordKindFromName: "名前 {name} から判断",
        .wordLimitStated: "レポートには上限 {limit} と書かれています",
        .wordLimitObserved: "開発者が観察している上限は約 {limit} です",
        .wordLimitUnknown: "上限の値は公開されておらず、確かな観察値もありません",
        .wordFootprint: "（使用量 {size}）",
        .causeOverKindLimit: "{name} がメモリ上限を超えました{footprint}（{kind}: {limit}）",
        .stepMeasureProcessMemory:
            "{name} のメモリ使用量を、システムが数えるとおりに測ってください: デバッガを接続した状態の Xcode のメモリゲージ、Instruments の Allocations と VM Tracker、実行時に記録した os_proc_available_memory() の値",
    ]
}
