// Japanese texts of the knowledge base's memory-limit entries (KB+MemoryLimits.swift), by entry
// ID: the same number of causes and steps as the English entry, in order.

extension Catalog {
    static let japaneseMemoryLimits: [String: KnowledgeText] = [
        "memoryLimit/memory limit: app": KnowledgeText(
            title: "アプリのメモリ上限",
            meaning: "アプリの上限はデバイスのメモリと OS のバージョンによって決まり、Apple は値を公開していません。os_proc_available_memory() で、実行時に上限までの余裕が分かります。",
            causes: ["アプリのメモリの増加: リーク、元の大きさのまま展開した画像、上限のないキャッシュ"],
            checkNext: ["レポートのデバイスのモデルで、Xcode のメモリゲージと Instruments（Allocations、Leaks）を使って測ってください"]),
        "memoryLimit/memory limit: watch-app": KnowledgeText(
            title: "watchOS アプリのメモリ上限",
            meaning: "watch アプリは iPhone のアプリよりはるかに少ないメモリで動き、上限は watch のモデルとフォアグラウンドかどうかで変わります。Apple は値を公開していません。",
            checkNext: ["サポートする最も古い watch のモデルで、Instruments の Allocations を使って測ってください"]),
        "memoryLimit/memory limit: extension": KnowledgeText(
            title: "App Extension のメモリ上限",
            meaning: "App Extension のメモリ上限はアプリよりずっと低く（Apple のドキュメントに記載）、拡張の種類ごとに異なります。上限を超えると警告なしに終了させられます。",
            checkNext: ["拡張のプロセスにデバッガを接続し、動いている間の Xcode のメモリゲージを見てください"]),
        "memoryLimit/memory limit: extension/broadcast-upload": KnowledgeText(
            title: "ブロードキャストアップロード拡張のメモリ上限（約 50 MB）",
            meaning: "ReplayKit のブロードキャストアップロード拡張は約 50 MB で終了させられます。保持したり変換したりする映像と音声のサンプルバッファはすべてこれに数えられます。",
            causes: ["送るより速くサンプルバッファを保持、複製、変換した（ネットワークが遅い間に伸びるキュー）"],
            checkNext: ["アップロードが遅れたらキューに溜めずにフレームを捨て、余分な複製なしにサンプルバッファからエンコードしてください"]),
        "memoryLimit/memory limit: extension/notification-service": KnowledgeText(
            title: "通知サービス拡張のメモリ上限（約 24 MB）",
            meaning: "通知サービス拡張は約 24 MB で終了させられます。添付ファイルをメモリ上でダウンロードしたり展開したりするのがよくある原因です。",
            causes: ["添付ファイル（画像、動画）をメモリ上でダウンロードまたは展開した"],
            checkNext: ["添付ファイルはファイルへダウンロードし（URLSession のダウンロードタスク）、展開せずにそのファイルを通知に渡してください"]),
        "memoryLimit/memory limit: extension/notification-content": KnowledgeText(
            title: "通知コンテンツ拡張のメモリ上限",
            meaning: "通知コンテンツ拡張には拡張としての低い上限があります。確かな観察値はありません。",
            checkNext: ["通知のビューに使うメディアは、表示する大きさで読み込んでください"]),
        "memoryLimit/memory limit: extension/widget": KnowledgeText(
            title: "ウィジェット拡張のメモリ上限（約 30 MB）",
            meaning: "WidgetKit の拡張は、タイムラインとビューを作る間に約 30 MB で終了させられます。大きな画像がよくある原因です。",
            causes: ["小さなウィジェットのために元の大きさで読み込んだ画像、または一度に作ったタイムラインの項目が多すぎる"],
            checkNext: ["画像はビューに渡す前にウィジェットの大きさへ縮小し、タイムラインを短く保ってください"]),
        "memoryLimit/memory limit: extension/today": KnowledgeText(
            title: "Today ウィジェットのメモリ上限（約 16〜32 MB）",
            meaning: "Today（通知センター）ウィジェットは、古いシステムでは約 16 MB、後のシステムでは約 32 MB で終了させられます。",
            checkNext: ["画像を縮小し、ホストアプリのデータストア全体を読み込まないでください"]),
        "memoryLimit/memory limit: extension/share": KnowledgeText(
            title: "共有拡張のメモリ上限（約 120 MB）",
            meaning: "共有拡張は約 120 MB で終了させられます。共有された項目（写真、動画）をすべて一度にメモリへ読み込むのがよくある原因です。",
            causes: ["共有された項目（写真、動画）を丸ごと一度にメモリへ読み込んだ"],
            checkNext: ["共有された項目はファイルとして（loadFileRepresentation）1 つずつ読み込み、プレビュー用の画像は縮小してください"]),
        "memoryLimit/memory limit: extension/action": KnowledgeText(
            title: "アクション拡張のメモリ上限（約 120 MB）",
            meaning: "アクション拡張の上限は共有拡張と同じ程度で、約 120 MB です。",
            checkNext: ["入力項目はファイルとして 1 つずつ処理してください"]),
        "memoryLimit/memory limit: extension/keyboard": KnowledgeText(
            title: "カスタムキーボードのメモリ上限（約 48〜70 MB）",
            meaning: "カスタムキーボードは、古いシステムでは約 48 MB（後のシステムでは約 70 MB）で終了させられます。辞書や予測モデルを丸ごと読み込むのがよくある原因です。",
            causes: ["辞書や予測モデルを丸ごとメモリに読み込んだ"],
            checkNext: ["大きな読み取り専用のデータは、メモリへ読み込まずにメモリマップしてください（Data の .alwaysMapped）"]),
        "memoryLimit/memory limit: extension/packet-tunnel": KnowledgeText(
            title: "パケットトンネルプロバイダのメモリ上限（約 15〜50 MB）",
            meaning: "Network Extension のパケットトンネルプロバイダは、iOS 15 より前は約 15 MB、それ以降は約 50 MB で終了させられてきました。パケットのバッファと接続ごとの状態がこれに数えられます。",
            causes: ["書き出すより速くパケットを溜めた、または接続ごとの状態を解放していない"],
            checkNext: ["パケットのキューに上限を設け、フローが閉じたら接続ごとの状態を解放してください"]),
        "memoryLimit/memory limit: extension/file-provider": KnowledgeText(
            title: "ファイルプロバイダ拡張のメモリ上限",
            meaning: "ファイルプロバイダ拡張には拡張としての低い上限があります。確かな観察値はありません。ファイル全体をメモリへ読み込むのがよくある原因です。",
            checkNext: ["ファイル全体をメモリへ読み込まずに、内容をストリームで扱ってください"]),
        "memoryLimit/memory limit: extension/intents": KnowledgeText(
            title: "Intents 拡張のメモリ上限",
            meaning: "Siri やショートカットの Intents 拡張には拡張としての低い上限があります。確かな観察値はありません。",
            checkNext: ["1 つのインテントに答えるために、ホストアプリのデータストア全体を読み込まないでください"]),
        "memoryLimit/memory limit: extension/photo-editing": KnowledgeText(
            title: "写真編集拡張のメモリ上限",
            meaning: "写真編集拡張には拡張としての上限があります。フル解像度の画像とフィルタをかけたその複製がこれに数えられます。",
            checkNext: ["編集中は表示サイズの画像で作業し、フル解像度の書き出しは最後に 1 回だけにしてください"]),
    ]
}
