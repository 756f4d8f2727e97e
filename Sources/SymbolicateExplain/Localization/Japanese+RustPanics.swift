// Japanese texts of the knowledge base's Rust panic entries (KB+RustPanics.swift), by entry ID:
// the same number of causes and steps as the English entry, in order.

extension Catalog {
    static let japaneseRustPanics: [String: KnowledgeText] = [
        "frameSymbol/Rust panic: index-out-of-bounds": KnowledgeText(
            title: "インデックスが範囲外",
            meaning:
                "Rust がスライス、配列、Vec へのインデックスを確かめ、長さ未満ではありませんでした。core::panicking::panic_bounds_check が 'index out of bounds: the len is L but the index is I' でパニックしました。",
            causes: ["コードの想定より長い、または短いデータから計算したインデックス（1 つずれ、空のコレクション）"],
            checkNext: ["インデックスが範囲外になりうる箇所では、パニックせずに None を返す get(i) を使ってください"]),
        "frameSymbol/Rust panic: unwrap-failed": KnowledgeText(
            title: "None または Err に対する unwrap / expect",
            meaning: "None の Option、または Err の Result に対して unwrap() か expect() を呼びました。あるはずと仮定した値がありませんでした。",
            causes: ["あると仮定した値がなかった、または成功すると仮定した処理が失敗した（Err の Debug 表記がメッセージにあります）"],
            checkNext: ["その呼び出しでは unwrap() ではなく、None や Err の場合を扱ってください（match、if let、?）"]),
        "frameSymbol/Rust panic: slice-range": KnowledgeText(
            title: "スライスの範囲が範囲外",
            meaning: "スライスや文字列を切り出す範囲が外にはみ出した、終わりが始まりより前だった、または（文字列では）文字の境界に一致しませんでした。",
            causes: ["データと合わない長さから計算した範囲、または文字を分断する UTF-8 文字列へのバイトオフセット"],
            checkNext: ["パニックせずに None を返す get(range) を使ってください。文字列では char_indices() で境界を求めてください"]),
        "frameSymbol/Rust panic: arithmetic-overflow": KnowledgeText(
            title: "算術オーバーフロー",
            meaning: "オーバーフロー検査のあるビルド（デバッグビルド、または overflow-checks = true）で整数演算がオーバーフローしました。Rust は値を巻き戻さずにパニックします。",
            causes: ["型が保持できる範囲を超える値（個数、サイズ、0 を下回る引き算）"],
            checkNext: ["値が型の範囲を出うる箇所では checked_*、saturating_*、wrapping_* の演算か、より広い型を使ってください"]),
        "frameSymbol/Rust panic: divide-by-zero": KnowledgeText(
            title: "ゼロ除算",
            meaning: "整数の除算または剰余で除数が 0 でした。Rust はどのビルドでも必ずパニックします。",
            causes: ["0 になりうるデータから計算した除数（空のリストの長さ、大きさ 0 の刻み）"],
            checkNext: ["先に除数を確かめるか、None を返す checked_div / checked_rem を使ってください"]),
        "frameSymbol/Rust panic: panic-cannot-unwind": KnowledgeText(
            title: "巻き戻せないパニック（FFI 境界）",
            meaning:
                "パニックが、巻き戻して抜けられない関数に達しました。Swift、Objective-C、C から呼ばれた extern \"C\" 関数か、別のパニック中に動いたデストラクタです。Rust はそこでプロセスを中断します（'panic in a function that cannot unwind'）。",
            causes: ["extern \"C\" 関数を通じて呼ばれた Rust のコードがパニックし、その境界で誰も捕まえなかった"],
            checkNext: ["すべての extern \"C\" 関数の本体を std::panic::catch_unwind で包み、呼び出し側が確かめるエラー値を返してください"]),
        "frameSymbol/Rust panic: allocation-failure": KnowledgeText(
            title: "メモリ確保の失敗",
            meaning: "メモリ確保が失敗し、Rust のメモリ確保エラーのハンドラがプロセスを止めました（'memory allocation of N bytes failed'）。",
            causes: ["非常に大きな確保（不正なデータから計算したサイズ）、またはプロセスのメモリ不足"],
            checkNext: ["要求したサイズをデータに本来必要な量と比べてください。入力からサイズが決まる箇所では try_reserve を使ってください"]),
        "frameSymbol/Rust panic: runtime-abort": KnowledgeText(
            title: "Rust ランタイムによる中断",
            meaning:
                "Rust の標準ライブラリがパニックなしにプロセスを中断しました。std::process::abort() が呼ばれたか、ランタイムが致命的なエラーに出会い、標準エラー出力に 'fatal runtime error: …' と書きました。",
            causes: ["コードが std::process::abort() を呼んだか、ランタイムが続行できない状態を検出した"],
            checkNext: ["プロセスの標準エラー出力で 'fatal runtime error' の行を読んでください"]),
        "frameSymbol/Rust panic: panic": KnowledgeText(
            title: "パニック",
            meaning: "Rust のコードがパニックしました。明示的な panic!、assert!、unreachable!、todo!、またはライブラリ自身の検査です。メッセージがどれかを示します。",
            causes: ["コード（または呼び出したライブラリ）が表明した条件が成り立たなかった"],
            checkNext: ["パニックのメッセージと発生箇所を読んでください。失敗した検査を示しています"]),
    ]
}
