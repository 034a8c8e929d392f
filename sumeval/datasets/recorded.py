"""The data sets sumeval reads, as recorded: each one's files with their sha256 and size (computed
from the shared copy), the public repository (and commit) the files were taken from, the licence
and a one-line description. :mod:`sumeval.datasets.registry` locates and verifies them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

__all__ = ["DatasetInfo", "DATASETS"]

# ------------------------------------------------------------------------------------------
# Recorded files: relpath -> (sha256, size in bytes), computed from the shared copy of the data.
# ------------------------------------------------------------------------------------------
_FILES_SUMMEVAL = {
    "summeval/summac_consistency_3experts_100.json": ("5a0615322704d8e75870221573619031b8b37777fd08039e6a5eed37f7df9c6e", 286185),
    "summeval/summeval_docs_100.jsonl": ("edb41746cca52caf9d387819363f9236ebd054c35f4fc2fe15c7dde768a0a384", 696441),
    "summeval/summeval_pairs_1600.jsonl": ("c57ec95bd4f3ec5466e7cce8c952c2c0b54dc3a93f33e2bf25c248234b8b07aa", 889556),
}
_FILES_REALSUMM = {
    "realsumm/LICENSE.txt": ("9ba9550ad48438d0836ddab3da480b3b69ffa0aac7b7878b5a0039e7ab429411", 18657),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/banditsumm_out.csv": ("497d4ae8c33c5b556ee2c76d22a2f51ae8423600dbb230adeef2a2a03149415a", 331226),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/bart_out_Batch_crowd_3.csv": ("52cf232a353d8f9d42874f1bbe1faf2f6c49ab0c1eff34e39faf8bdc0536ad43", 332373),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/bottom_up_out_Batch_crowd_3.csv": ("40de01a56e32ed4580b15262db3f3510b273fce79b999328c4cafada47cd20ac", 310541),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/fast_abs_rl_out_rerank_Batch_crowd_3.csv": ("81b2386d80c3e5b8828124f3ed8e209586f11860da5761025dabd21fb5132d79", 353880),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/neusumm_out_Batch_crowd_3.csv": ("b7b80d4078f5775534668a9c203e87acd5ca7213119845746e62e31873038d2e", 355834),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/presumm_out_abs_Batch_crowd_3.csv": ("888526a9fe93aaf492faa34b58432efb1e52df584a61605fee3f5d32aa69fbd0", 321299),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/presumm_out_ext_abs_Batch_crowd_3.csv": ("b523774b8224905c63812e7a35275edbf3c1163aecafdafc9aafbbbf70539de8", 319919),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/presumm_out_trans_abs_Batch_crowd_3.csv": ("6e92ad09482d8fdd6fc8bfe79f9d6b64f39d6193b1408c820c32a7d8f670bf7e", 350131),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/ptr_generator_out_pointer_gen_cov_Batch_crowd_3.csv": ("bdcedc51e4ff0be255023fb2c8906307c2eb71da14fd75893b979a89aff8f681", 329463),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/semsim_out_Batch_crowd_3.csv": ("fa349f2f5085d4f9249810ab12a62b6c7dc7b2d52ce20b9404b47183c8236eb4", 335936),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/t5_out_11B_Batch_crowd_3.csv": ("b08abe3ea378bc6cd2dab4c22a9b287c63ce33b7e07ea31c8a8309640dcfd1a8", 312194),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/t5_out_base_Batch_crowd_3.csv": ("cb690d8010a658ffdbaea40279baee8bace2a23a57b413bf08901992aa08e142", 301767),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/t5_out_large_Batch_crowd_3.csv": ("a26b45f44a020c5a1c2cc2c4f9a797323a455de9a28d471724465d64a39866f9", 300561),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/two_stage_rl_out_Batch_crowd_3.csv": ("25b85b104ceaf4a2e40ee21416725e15e671e4c2f8d4328ed74beabe8ee0456a", 313714),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/unilm_out_v1_Batch_crowd_3.csv": ("f119b5340fb3d6b00cdc87b0857e21308716d7c88c20a8fc8ece64a6e6dbc7be", 319806),
    "realsumm/raw/SCU_annotations/SCU_rating_results_abs_systems/unilm_out_v2_Batch_crowd_3.csv": ("e9d6945a51a12cab4f8443c32eab1f6b868540b23335cf4b337bd20051b8b5fc", 300132),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/bart_out.csv": ("97b87555738529f8ac96e1ca951878620565b432da69696596cf5341395f5f87", 336669),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/heter_graph_out.csv": ("3e5cb213f144ed854039349146e23741e56947fec2626a60e0417243535cc31e", 335411),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/matchsumm_out.csv": ("70391b6d2ef50a467789ae8e753425df78b0ab4fdbab16f30414cc0a06414d18", 337573),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_bert_lstm_pn.csv": ("abc990d41c6928833495c31fe3f165001d081e115e3433d90860660611b5220c", 352170),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_bert_lstm_pn_rl.csv": ("bb70ccd3bd38e5491b9495b136587824ae3f180c0802ea2315d51c1a87d8f354", 345850),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_bert_tf_pn.csv": ("9c5fadf0c4157554ba5b8f40425d2dd03b2c0439d0494adb7be7b004cd8c8359", 337327),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_bert_tf_sl.csv": ("f170dd6e054094c55debefb3aaea12e01ab830cb99d1b60392a5fb9ee97dde79", 344211),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/pnbert_out_lstm_pn_rl.csv": ("3324b27b8627e05603c2f30cad6165755f0b50583cfbea6eb847052f72774ff6", 335070),
    "realsumm/raw/SCU_annotations/SCU_rating_results_ext_systems/refresh_out.csv": ("57c266f09e2f14afe9944f98d15493a8422f15eaab0b585baebd84e1b26a28bf", 388365),
    "realsumm/raw/SCUs_list.csv": ("14687dd57562cbd4e72dc26ff29f90dee71023fa6616bf53dc80d373fa10e4c0", 97893),
    "realsumm/raw/selected_documents.md": ("163943dfa248a82aa24912f339b32cb9e61cc387ceda9e75116173dba3a88aed", 905),
    "realsumm/raw/src.txt": ("38f4cfb9a815317cf01bead7e71d4e41b9ac8c536b750bcddcbc5dc942146c85", 385017),
    "realsumm/realsumm_100x25.jsonl": ("0ee0cdc19c0553b67e8dcc5b9270cf04341f5cf3a5fd2a5edefb818ca9ea3b94", 2118418),
}
_FILES_SUMMEVAL_ANNOTATORS = {
    "summeval_annotators/human_annotations.json": ("2e641f502678ea8c7344ed137bca58a12525bfcf69bc068e580b236ce2b17519", 1512152),
    "summeval_annotators/llm_annotations.json": ("a6200543db890e4691eca3620ad6f1627fc7a22fee5a0139bc9805e388fb1d90", 3024348),
}
_FILES_DIALSUMMEVAL = {
    "dialsummeval/human_judgment.jsonl": ("727e1983f625a3380a8dc964035e5119d2c24220fbc1628e66801939494c50c5", 1341024),
    "dialsummeval/models_eval_new/A/metrics.csv": ("be2bf8193c769d68642f9a457f6dd50b82379fcca1c60e037adc18fd031868e8", 39467),
    "dialsummeval/models_eval_new/A/summs.txt": ("cb974243c43b8846bb034196f81fe823c0fbaabfce30df12b184992f12eff391", 11777),
    "dialsummeval/models_eval_new/B/metrics.csv": ("4726d6aae28561146b004b3c78315e9a8a2385538adb4c4af7d2f42946471f30", 52240),
    "dialsummeval/models_eval_new/B/summs.txt": ("1cade98e09347f699e7b46059b8148afdbe4b6821bde002b19de0df2c57da53f", 31626),
    "dialsummeval/models_eval_new/C/metrics.csv": ("f76c868d827799e85a858465253ae41790170794d1d68b2348b1168ae7ea42da", 52052),
    "dialsummeval/models_eval_new/C/summs.txt": ("e2bccdd5fa40889ee81789f28f115d757c979a44c0c466a5fe3c860e149f968d", 19249),
    "dialsummeval/models_eval_new/D/metrics.csv": ("96617e93a94edfa963ca9ce13d0964a0db6d2e1982909a22dfa115eb246356f6", 50715),
    "dialsummeval/models_eval_new/D/summs.txt": ("9dc29b001ad4a9d778d0e86c94acbd729c0abd0f33c5a3037546512e9493d2dc", 6416),
    "dialsummeval/models_eval_new/E/metrics.csv": ("4e95577b1c6305fae8ddcf953688d0f4bbfb61d01d3a9f349f91add939869400", 50647),
    "dialsummeval/models_eval_new/E/summs.txt": ("ef87a76ee11d8db9ef55fdc42e59a80f01fc39208ab196e5be949b372e636bdf", 7800),
    "dialsummeval/models_eval_new/F/metrics.csv": ("fccd037a080e51aa6dbeeb0af15cf5c7265195b1288077845fbaee7ff08ef439", 52606),
    "dialsummeval/models_eval_new/F/summs.txt": ("7bafe4587295dfcddecaaf47f6c1740173d8dc399680e4ec70e8b7a6dd2bc69d", 9812),
    "dialsummeval/models_eval_new/G/metrics.csv": ("f36396f6609d934b3aaf28e5219682702f858a7a4bc77dd2c49057f84900b05a", 52089),
    "dialsummeval/models_eval_new/G/summs.txt": ("cb9f7f1c397980561db77fdcf68e6930d5861b12b576d0e13d851c43e642f656", 8216),
    "dialsummeval/models_eval_new/H/metrics.csv": ("88656f1a5a529ba5f39a011f969e201b82ff7628d633d9824d40143f1a93f60d", 52001),
    "dialsummeval/models_eval_new/H/summs.txt": ("27b38a103fb1c692456bd7fffb168dd7c9a717d994f8e632a0a305cd1b2adabc", 9472),
    "dialsummeval/models_eval_new/I/metrics.csv": ("90095b7e43ebbe47b00586bbb8d9ff734356881952bddf00c9e650f074411017", 52473),
    "dialsummeval/models_eval_new/I/summs.txt": ("6cd61b6e9575261a98b78e4962a7746b4a88fc05a9d7c254980b98f043551a61", 9534),
    "dialsummeval/models_eval_new/J/metrics.csv": ("cc1f6e471c0d1a7d3e599f10907f1e898859856ebdf05b022751412c608ca951", 52383),
    "dialsummeval/models_eval_new/J/summs.txt": ("5a615eba58a6296e8efc970b672061627a380214df8d9fd255a304976b56b869", 8970),
    "dialsummeval/models_eval_new/K/metrics.csv": ("ddd8a7966561624660bedd9eadbc7e828b9e2797f4070b0cc8648051a8ee298c", 52994),
    "dialsummeval/models_eval_new/K/summs.txt": ("aed3b82139a3ee859bc368247278df98297de147ff498125cac8cc72529569d0", 11801),
    "dialsummeval/models_eval_new/L/metrics.csv": ("2743440b504a31d0691bb290f6b076cfddc7da2a29f212ba3948a1873b82c52b", 52389),
    "dialsummeval/models_eval_new/L/summs.txt": ("b5d54a45f6a0aa0e87f05762b478ea419f788d281209efe1f18b18edbe463e09", 10327),
    "dialsummeval/models_eval_new/M/metrics.csv": ("4b2c4a40eef1435411bd85c6f01ae2c20656500cd6f7440da13b7ac0447ef459", 53091),
    "dialsummeval/models_eval_new/M/summs.txt": ("e152c0d15d0d28579f2548131512b8b39903f8863ef3e3f0639888d676c87b1b", 11342),
    "dialsummeval/models_eval_new/N/metrics.csv": ("63c0eed499916b1db70db89cdd5316dcdcc5a9035fc8f9502a8b7d062809238f", 52351),
    "dialsummeval/models_eval_new/N/summs.txt": ("12a97554c384fbf4cba127f80196da0c85204d9ba5c5c57db17dd97612eb2215", 10119),
    "dialsummeval/models_eval_new/dials.txt": ("15635a120d3e5fa3011bd94638cb4faa2d84c35d9ccd362b71295ff52e81b19a", 55208),
}
_FILES_FRANK = {
    "frank/LICENSE": ("3ac303fd4e49e6c133cfc32d8d518fba224fd431872c7bc086e27d597e3e7df3", 1073),
    "frank/baseline_factuality_metrics_outputs.json": ("b64e54b42212b5780e27cab72a5d895e4f32a300906dcfecb91345e1ab99443c", 1503458),
    "frank/human_annotations.json": ("7be2dfd49ad2f2582ab28578cce1dbf256fd46415a0f902a472421bca6fe31d2", 1847530),
    "frank/selected_documents.txt": ("f572da1eceb6a8acaebcbd7d211aad46f4c8dfa766f0620fbcd9b37c8d2f2a1b", 12490),
    "frank/test_split.txt": ("d6d14b924bf4f4f5aaf59bb370ecb50e461eb0559b8c5aa0d659432bb6f90fac", 8750),
    "frank/validation_split.txt": ("7967df16bc253f0c8f0a14fd5af44cdbd01d65a093e8ed988fd5827356fd35ec", 3741),
}
_FILES_QAGS = {
    "qags/mturk_cnndm.jsonl": ("5a6e20201f2c5d5d2489865137987c5d68d04c5b4e84662f99bb03862bb3a575", 600853),
    "qags/mturk_xsum.jsonl": ("1fb9af32ba64b0df54b26e12456b0b0324a519a85348c1f7b268899ad6269a15", 570571),
}
_FILES_XSUMFAITH = {
    "xsumfaith/eval_scores_xsum_summaries.csv": ("f7b3d571173ca0dc47a8d72314ce402fb3db7cb54dc84439d35eb766d393fbe3", 181723),
    "xsumfaith/factuality_annotations_xsum_summaries.csv": ("f0ace0a9b52cacaa632ded3d07a355b7991383ce28fdd9fcbbf08a8523695ecb", 759614),
    "xsumfaith/hallucination_annotations_xsum_summaries.csv": ("fa7fb66a36cc0f32ede4135985d0d65591dc2a8d21103a0bacd0583d77d4c8ea", 2105145),
}
_FILES_NEWSROOM = {
    "newsroom/newsroom_60x7.jsonl": ("c122cd777a7c75f040d8071fc7417507dc1b6128d27819386dbce355a9b46829", 447957),
}
_FILES_RANK19 = {
    "rank19/rank19_373.jsonl": ("0e53ba80ebb6bd197da7f29eb4bb65db8b1c31bf57cc65d0fb7bb3c97fee6f30", 226479),
}
_FILES_ROSE = {
    "rose/acu-cnndm-test.json": ("c9713bc1c026836a3ccf13129bd026f606d4b58e37d13893e0cb0efbb3da3b52", 531479),
    "rose/protocol-comparison-llm.json": ("eb9b5352a2339c25910a507fd3b45f5c8535d7ea6172667a6270c35e8ba20b03", 809921),
    "rose/protocol-comparison.json": ("dba8af6d77218d0422e35d684cb6d3d7dee61877acd6776fb0bfdaff14f0f5f0", 1226117),
}
_FILES_NIPS = {
    "ordering/nips/README.NSEG.md": ("d4cc47d4e603dd3574f6393f88e33806d44a1482d26efb535147eac5d4e904d3", 869),
    "ordering/nips/test.eg": ("e1c519d7db979a1eaed03cb92af4ac239f61340803a98fc1984bcf4d27623d43", 40344),
    "ordering/nips/test.lower": ("c5dfd0728055e738fab11c7915a3498063b8e7dd67c97ccaf75318937f2fc3a0", 399974),
    "ordering/nips/train.eg": ("ba3758caa3559a828e2f1e7a7a69333f52bd1512ba1fabd348a15c643a16466c", 254133),
    "ordering/nips/train.lower": ("d42582368635d0fb423738530c86e7d11e633b191dae5aa380b15e65427124e1", 2436469),
    "ordering/nips/val.eg": ("b950d548ef621873043cd7209a0f7663a4c5fbccdc5435488f54aa6143788bad", 47009),
    "ordering/nips/val.lower": ("ce8f232bb4a5becfefab728de6b1f8f20a8d1bc19142335c9e55da7344155401", 439528),
}
_FILES_SIND = {
    "ordering/sind/LICENSE.repo-MIT": ("fe4458c30c9edb425bed3c905c9162e94ca2bb5ea021fd3e0fb64096d0c155a7", 1071),
    "ordering/sind/dev.tsv": ("12da6bc53af95a231034ea158fa2c7778a9900ac3ec335d97810d276d8d09701", 1478873),
    "ordering/sind/test.tsv": ("31796da0e61fdf43229e0300be19f6810f68d77bbaaeb627adcc41be645d7b09", 1483034),
}
_FILES_ROC = {
    "ordering/roc/LICENSE.repo-MIT": ("7a4348bcc838ef3811ad96475d975869ba6104bfec46572b371fa34482defdb5", 1107),
    "ordering/roc/test.tsv": ("258c44ccafeead151abd5834c590afea6a9879443bb46b9c967791bd5e37928b", 2253861),
    "ordering/roc/valid.tsv": ("2b6bfe3cf471a41ec84ecace9c0277591f0cf69f3cc590bb5a3a6e0b3b89a4ae", 2254755),
}
_FILES_WIKIPEDIA2015 = {
    "corpora/wikipedia/enwiki2015_early_jasonfeng_cap4k.jsonl.gz": ("64f8b301e0a65b851a2b41353e9f9a40b8215aee07bdcdb257abc6ee4a4a84c5", 32876840),
}
_FILES_WIKIPEDIA2018 = {
    "corpora/wikipedia/enwiki2018_newarticles_vibhas.jsonl.gz": ("8b60187f4ffafb8c4dc828661024eeca0432f418666d5e2820c57e1da3b11882", 22147339),
}
_FILES_REUTERS21578 = {
    "corpora/news/reuters21578/README.txt": ("eb669045dd883c56cb5a96da1848c3380bc6371894c5663709a46776e3262a96", 36388),
    "corpora/news/reuters21578/reuters21578.jsonl.gz": ("48e11f68819cfd614a7cd39698024d62ae121d372ef6966bd10bc87cfc6b6e56", 7283194),
}
_FILES_20NEWSGROUPS = {
    "corpora/news/20newsgroups/20news_bydate.jsonl.gz": ("f09e26034a5204959d129f78b60be7ad43debff6e985dd6054c77706730b2f63", 13868440),
}
_FILES_BBC2005 = {
    "corpora/news/bbc2005/README.TXT": ("eea76164b59389dd8e7267d30cd3680afa001143be2df8fc0631c8c991dd150b", 598),
    "corpora/news/bbc2005/bbc_news_2225.jsonl.gz": ("69c8df9f329c3f3b5c6890c4f96f27e4b2bfe95d66a7d528bb5b450778cd25c9", 1883734),
}
_FILES_SLOGANS = {
    "slogans/LICENSE": ("0c7e2741235b26b77f201fd176442214b019ee614c603270aa8adee1f93b19af", 1068),
    "slogans/slogans.csv": ("296120ba141d0232eddf7b159ae171b26a39b78d45b706b8067d245ad3da847a", 641068),
}


@dataclass(frozen=True)
class DatasetInfo:
    """One data set: where it comes from, under which terms, and its files.

    ``files`` maps a path relative to a data folder to ``(sha256, size in bytes)``.
    ``source`` names the public repository and commit the files were taken from (the files
    are that repository's files, or converted from them into JSONL without changing their
    content); ``original`` names the data set's own home where it differs.
    """

    name: str
    description: str
    source: str
    license: str
    files: Mapping[str, tuple[str, int]]
    original: str = ""
    citation: str = ""

    @property
    def folders(self) -> list[str]:
        """The top folders of the data set's files (e.g. ``["summeval"]``)."""
        return sorted({str(Path(p).parent) for p in self.files})

    @property
    def size(self) -> int:
        """Total size of the data set's files in bytes."""
        return sum(size for _, size in self.files.values())

    def how_to_obtain(self) -> str:
        """One sentence telling a user where to get the files."""
        text = f"get it from {self.source}"
        if self.original:
            text += f" (original: {self.original})"
        return text + f"; licence: {self.license}"


DATASETS: dict[str, DatasetInfo] = {
    d.name: d
    for d in [
        DatasetInfo(
            name="summeval",
            description="SummEval: 100 CNN/DM test articles x 16 systems with expert coherence, "
            "consistency, fluency and relevance (mean of 3 experts), 11 references each, and "
            "100 pairs with the 3 individual expert consistency scores (SummaC).",
            source="https://github.com/neulab/BARTScore/tree/248f511c (SUM/SummEval/data.pkl) and "
            "https://github.com/tingofurro/summac/tree/46056e54 (data/summeval.json)",
            license="Apache-2.0 (redistributing repositories); SummEval annotations MIT",
            original="https://github.com/Yale-LILY/SummEval",
            citation="Fabbri et al. 2021, SummEval: Re-evaluating Summarization Evaluation, TACL",
            files=_FILES_SUMMEVAL,
        ),
        DatasetInfo(
            name="realsumm",
            description="REALSumm: 100 CNN/DM test articles x 25 systems (14 abstractive, 11 "
            "extractive) with LitePyramid recall, plus the SCU lists and the crowd workers' "
            "per-summary SCU judgments (raw/).",
            source="https://github.com/neulab/REALSumm/tree/a5900e3e (scores_dicts/*.pkl, "
            "human_annotations/)",
            license="CC BY 4.0",
            citation="Bhandari et al. 2020, Re-evaluating Evaluation in Text Summarization, EMNLP",
            files=_FILES_REALSUMM,
        ),
        DatasetInfo(
            name="summeval_annotators",
            description="SummEval's 3 expert annotators individually (1,600 summaries x 4 qualities, "
            "6,400 scores each) and 6 LLM judges' 1-5 scores of the same 6,400 items, as released "
            "with the alternative annotator test; joined into the built-in data set summeval.",
            source="https://github.com/nitaytech/AltTest/tree/18428b1f (data/summeval_annotators/)",
            license="no licence file in the repository; research use, cite Calderon et al. 2025 and "
            "Fabbri et al. 2021 (the SummEval annotations are MIT)",
            original="https://github.com/Yale-LILY/SummEval",
            citation="Calderon, Reichart & Dror 2025, The Alternative Annotator Test for "
            "LLM-as-a-Judge, ACL",
            files=_FILES_SUMMEVAL_ANNOTATORS,
        ),
        DatasetInfo(
            name="dialsummeval",
            description="DialSummEval: 100 SAMSum test dialogues x 14 summary sources (the SAMSum "
            "reference and 13 systems), 3 annotators x 4 qualities (1-5), and the paper's 32 metric "
            "columns per summary (models_eval_new/).",
            source="https://github.com/kite99520/DialSummEval/tree/667118e1 "
            "(annotation_campus/human_judgment.jsonl, reproduce/analysis/models_eval_new/)",
            license="no licence file in the repository; research use, cite Gao & Wan 2022; the "
            "dialogues are SAMSum, CC BY-NC-ND 4.0 (non-commercial, no derivatives)",
            citation="Gao & Wan 2022, DialSummEval: Revisiting Summarization Evaluation for "
            "Dialogues, NAACL",
            files=_FILES_DIALSUMMEVAL,
        ),
        DatasetInfo(
            name="frank",
            description="FRANK: factuality and error types of 2,246 summaries of 499 CNN/DM and XSum "
            "test articles (9 systems), 15 baseline measures, the valid/test split; no texts.",
            source="https://github.com/artidoro/frank/tree/80a88fb1 (data/)",
            license="MIT",
            citation="Pagnoni, Balachandran & Tsvetkov 2021, Understanding Factuality in "
            "Abstractive Summarization with FRANK, NAACL",
            files=_FILES_FRANK,
        ),
        DatasetInfo(
            name="qags",
            description="QAGS-C (235 CNN/DM articles, Bottom-Up summaries) and QAGS-X (239 XSum "
            "articles, BART summaries): each summary sentence judged yes/no by 3 crowd workers.",
            source="https://github.com/W4ngatang/qags/tree/47798e9b (data/mturk_*.jsonl)",
            license="no licence file in the repository; research use, cite Wang et al. 2020; the "
            "articles are CNN/DM and XSum (BBC)",
            citation="Wang, Cho & Lewis 2020, Asking and Answering Questions to Evaluate the "
            "Factual Consistency of Summaries, ACL",
            files=_FILES_QAGS,
        ),
        DatasetInfo(
            name="xsumfaith",
            description="XSumFaith: hallucinated spans marked by 3 workers in 500 XSum test "
            "summaries x 5 sources (4 systems and the reference), workers' factuality judgments, "
            "and the authors' per-summary scores; no source articles.",
            source="https://github.com/google-research-datasets/xsum_hallucination_annotations/tree/4abdbb2c",
            license="CC BY 4.0",
            citation="Maynez, Narayan, Bohnet & McDonald 2020, On Faithfulness and Factuality in "
            "Abstractive Summarization, ACL",
            files=_FILES_XSUMFAITH,
        ),
        DatasetInfo(
            name="newsroom",
            description="Newsroom human evaluation: 60 articles x 7 systems, coherence, fluency, "
            "informativeness and relevance (mean of 3 raters, 1-5), as prepared by BARTScore "
            "(a JSONL conversion of its pickle).",
            source="https://github.com/neulab/BARTScore/tree/248f511c (SUM/Newsroom/data.pkl)",
            license="BARTScore Apache-2.0; Newsroom data terms, research use, cite Grusky et al. 2018",
            citation="Grusky, Naaman & Artzi 2018, Newsroom: A Dataset of 1.3 Million Summaries "
            "with Diverse Extractive Strategies, NAACL",
            files=_FILES_NEWSROOM,
        ),
        DatasetInfo(
            name="rank19",
            description="Rank19: 373 CNN/DM article sentences, each with a correct and an incorrect "
            "generated summary sentence (a pairwise set), as prepared by BARTScore (a JSONL "
            "conversion of its pickle).",
            source="https://github.com/neulab/BARTScore/tree/248f511c (SUM/Rank19/data.pkl)",
            license="CC BY-SA 4.0 (Falke et al.'s release README); BARTScore Apache-2.0",
            original="https://github.com/W4ngatang/qags/tree/38966f7d (data/falke-correctness/)",
            citation="Falke et al. 2019, Ranking Generated Summaries by Correctness, ACL",
            files=_FILES_RANK19,
        ),
        DatasetInfo(
            name="rose",
            description="RoSE protocol slice: 100 CNN/DM test documents x 12 systems scored under 4 "
            "protocols (prior, ref_free, ref_based, ACU and normalized ACU); the LLM slice and the "
            "reference ACUs of the CNN/DM test set.",
            source="https://github.com/Yale-LILY/ROSE/tree/0afe48bd (docs/_data/)",
            license="no licence file at 0afe48bd (BSD-3-Clause, Salesforce, added later in "
            "8b93128a); research use, cite Liu et al. 2023",
            citation="Liu et al. 2023, Revisiting the Gold Standard: Grounding Summarization "
            "Evaluation with Robust Human Evaluation, ACL",
            files=_FILES_ROSE,
        ),
        DatasetInfo(
            name="nips",
            description="NIPS abstracts for sentence ordering (SE-Graph): train/val/test .lower "
            "(one document a line, sentences joined by ' <eos> ', lowercased, tokenized) and "
            ".eg entity files.",
            source="https://github.com/DeepLearnXMU/NSEG/tree/5e6d623e (nips/)",
            license="none stated",
            citation="Yin et al. 2019, Graph-based Neural Sentence Ordering, IJCAI",
            files=_FILES_NIPS,
        ),
        DatasetInfo(
            name="sind",
            description="SIND visual stories for sentence ordering, five sentences each, "
            "' <eos> ' separated: dev and test (no train split).",
            source="https://github.com/steven640pixel/nonautoregressive-sentence-ordering/tree/fdf31737",
            license="VIST terms (repository code MIT)",
            original="https://visionandlanguage.net/VIST/",
            files=_FILES_SIND,
        ),
        DatasetInfo(
            name="roc",
            description="ROCStories for sentence ordering, five tab-separated sentences each: "
            "valid and test (no train split).",
            source="https://github.com/declare-lab/sentence-ordering/tree/c6524778",
            license="ROCStories terms (repository code MIT)",
            original="https://cs.rochester.edu/nlp/rocstories/",
            files=_FILES_ROC,
        ),
        DatasetInfo(
            name="wikipedia2015",
            description="29,070 English Wikipedia articles of 2015 (WikiExtractor text, "
            "paragraphs as lines, each cut at about 4000 characters): id, title, url, text.",
            source="https://github.com/jason-feng/wikiVisual/tree/1c0fac92",
            license="CC BY-SA",
            files=_FILES_WIKIPEDIA2015,
        ),
        DatasetInfo(
            name="wikipedia2018",
            description="34,999 new English Wikipedia articles of 2018, full text.",
            source="https://github.com/Vibhas-hs-edu/WikiTasks/tree/b296125b",
            license="CC BY-SA",
            files=_FILES_WIKIPEDIA2018,
        ),
        DatasetInfo(
            name="reuters21578",
            description="Reuters-21578 newswire, 21,578 stories (19,043 with a body): id, date, "
            "topics, title, text, lewissplit.",
            source="https://github.com/colibri17/TextCategorization/tree/b6c2ca3d",
            license="research use (see README.txt)",
            original="http://www.daviddlewis.com/resources/testcollections/reuters21578/",
            files=_FILES_REUTERS21578,
        ),
        DatasetInfo(
            name="20newsgroups",
            description="20 Newsgroups by date, 18,846 posts: id, split, newsgroup, subject, text.",
            source="https://github.com/julenminer/mlnn_P65/tree/7393be66",
            license="research use",
            original="http://qwone.com/~jason/20Newsgroups/",
            files=_FILES_20NEWSGROUPS,
        ),
        DatasetInfo(
            name="bbc2005",
            description="BBC news 2004-2005, 2,225 articles in 5 categories, paragraphs separated "
            "by blank lines: id, category, title, text.",
            source="https://github.com/dejanbatanjac/bbc-article-classify-bert/tree/8265dc84",
            license="BBC copyright, research use (see README.TXT)",
            original="http://mlg.ucd.ie/datasets/bbc.html",
            files=_FILES_BBC2005,
        ),
        DatasetInfo(
            name="slogans",
            description="9,519 advertising slogans (company, slogan), the Insert noise of paper 002.",
            source="https://github.com/jonathanbgn/slogan-generator/tree/b943037c",
            license="MIT",
            files=_FILES_SLOGANS,
        ),
        DatasetInfo(
            name="faithbench",
            description="FaithBench: 750 summaries (75 sources x 10 LLMs, 2023-24) with hallucinated spans "
            "marked by 14 annotators (2,189 spans), 8 detectors' / LLM judges' predictions, and the authors' "
            "sample-level worst / best labels (FaithBench.csv, 800 rows: 50 of them in no released batch).",
            source="https://github.com/vectara/FaithBench/tree/cf89797d (data_for_release/, FaithBench.csv)",
            license="CC BY-NC-SA 4.0: non-commercial use only, share-alike (anything derived carries the same "
            "licence), attribution",
            citation="Bao et al. 2025, FaithBench: A Diverse Hallucination Benchmark for Summarization by "
            "Modern LLMs, NAACL",
            files={
                "faithbench/FaithBench.csv": ("b64595319c5a0673c7af00a12c9340a79aeb3437c021b097745413da42d80a09", 1821812),
                "faithbench/LICENSE": ("e66c269d4819aaab34b49ef5220c4ddab6756f21bb5180761a4eb8561f2b7bbd", 20850),
                "faithbench/batch_1.json": ("a4e7858702e741b0fb024a022a906f61fb8eb65011b7f7b138e56e080a4c8c59", 76262),
                "faithbench/batch_2.json": ("18f1b2b9eae6fbf2020f295dc5ca512ef1a7e389e763b707bc51831f58df6a70", 154793),
                "faithbench/batch_3.json": ("84b709a9d88998f478f429ee2330ea18666ae9e5340ea398ece03cec6ab54308", 98772),
                "faithbench/batch_4.json": ("c0f68bc222dd8b6e332cb6668840de8da150687ddf6f9b5bd243f389033fda42", 149892),
                "faithbench/batch_5.json": ("6be08bb37ccdf68e41e117b0174cc3c8b41ed7bf85134d00e0e89c023e96b436", 190782),
                "faithbench/batch_6.json": ("a5fd42aa64fbe15f535192ddfd3cfc72b53535cde7834cb6685ebe0a229f8587", 135160),
                "faithbench/batch_7.json": ("28e83e1487381ce317103505dab4d5679ad74f53541374a98e24e3673734343b", 191546),
                "faithbench/batch_8.json": ("5cf2b8ab42fe1d4b0018cf736448dd8a88318267b0efc2f45ea200e713932975", 236853),
                "faithbench/batch_9.json": ("4924fe2d0975890712032a128544c0619c2ebf81d5d472e99e7883f1a9720bd5", 201505),
                "faithbench/batch_10.json": ("8e5cec822516abbf74cd6796104bbe537da98628c671b64c10afa3b15bebe08c", 292603),
                "faithbench/batch_11.json": ("cf999c8fa9696f4b24d8f4b08f9fdd6603a942cfee63ad851ff6d1f265c116cc", 189035),
                "faithbench/batch_12.json": ("fda9f0e0eae69c13b79a8fc1f81d1f8a02e9f28ad8c3274619c4369bb15c818e", 205796),
                "faithbench/batch_14.json": ("72f07b9f4b91f8a49d96e7adc79a8308edb92a2e6b34babcd9ef68dc6b7b2f34", 394638),
                "faithbench/batch_15.json": ("c6608ce2edd17134674c7f8a0fdfc871e22458b432b35506889886c737eb4663", 370657),
                "faithbench/batch_16.json": ("e35ace1069bb79844b122415d3c4192f7147737a2b9ad509185fb2c1ba7090db", 426968),
            },
        ),
        DatasetInfo(
            name="storysumm",
            description="StorySumm: 96 LLM summaries of 32 short stories (5 models) labelled faithful or not, "
            "sentence by sentence, with a val / test split and 10 evaluators' predictions. storysumm.json is "
            "not valid JSON as released: the loader deletes one stray byte and checks the repaired sha256.",
            source="https://github.com/melaniesubbiah/storysumm/tree/22d47af2 (storysumm.json, "
            "evaluators/predicted_labels/)",
            license="MIT (Copyright (c) 2024 Melanie Subbiah); the stories' own terms are not stated",
            citation="Subbiah et al. 2024, STORYSUMM: Evaluating Faithfulness in Story Summarization, "
            "EMNLP Findings",
            files={
                "storysumm/LICENSE": ("ed3729b695da7ee35b86133bd21ceb72118c26ae216ea20f8ba612e6add31045", 1072),
                "storysumm/storysumm.json": ("a5d33036b5a77e344912ea8c28dc831358ba91412217d9cdff3049f80e307cab", 567908),
                "storysumm/predicted_labels/alignscore-roberta-large.json": ("12d4f706195b66aea24578d28a6801738c6140a9bb2470e659f5f844ddc1cf7b", 5939),
                "storysumm/predicted_labels/claude-3-opus-20240229/cot.json": ("3e95a0f1a631430952459841ab9e184b737d782bc07c2d36552c9ac497ed3b31", 57991),
                "storysumm/predicted_labels/claude-3-opus-20240229/justquestion.json": ("e28cfb87861525269e4d5f2e2558dd046c4975b3555aeb2f85d98f7cce1d3e14", 4308),
                "storysumm/predicted_labels/fables-gpt-4-turbo-preview.json": ("500453a28e6c18cad22c030b3e07fc9df1c019354fc6aa0535ce3c7581a543a2", 9480),
                "storysumm/predicted_labels/gpt-4-0125-preview/cot.json": ("2ecbb52d65d700b629cae61dda254a924c73f8ca2a9600ba3f001aed43e570b6", 70174),
                "storysumm/predicted_labels/gpt-4-0125-preview/justquestion.json": ("4e5257b92064501180c6f3d244bf80e6f952ec0e33e82afd6b6728012eb4394a", 5840),
                "storysumm/predicted_labels/minicheck-flan-t5-large.json": ("86b22881759b7bf0458c5acf488ea96ae1eb732c9e384439532d2dd8e60ac545", 20538),
                "storysumm/predicted_labels/mixtral/cot.json": ("8725d5c9426761244237867b6b06db33922536387dccd5898930fc0d02ad05cb", 54679),
                "storysumm/predicted_labels/mixtral/justquestion.json": ("35a05a9f3b394e528ef685dbed1ae65c75dbefbc0deb54a895b24b8faed2307a", 4308),
                "storysumm/predicted_labels/unieval.json": ("b5d2414388ecb8e49e14c7ec603c3c2a1d0188f670cc934337a94e850a0ba7ac", 5928),
            },
        ),
        DatasetInfo(
            name="newsroom_raters",
            description="Newsroom human evaluation with the 3 individual crowd ratings per quality (420 summaries "
            "x 4 qualities, 5,040 scores), as converted by Judge-Bench; joined into the built-in data set newsroom "
            "as <quality>/rater_1..3.",
            source="https://github.com/dmg-illc/JUDGE-BENCH/tree/5a0bf500 (data/newsroom/newsroom.json); "
            "https://github.com/lil-lab/newsroom/tree/545391bb (LICENSE)",
            license="Newsroom human evaluation Apache-2.0 (lil-lab/newsroom); JUDGE-BENCH has no top-level licence "
            "file (its data/README.md lists NewsRoom as Apache-2.0); research use, cite Grusky et al. 2018 and "
            "Bavaresco et al. 2025",
            original="https://github.com/lil-lab/newsroom/tree/master/humaneval",
            citation="Bavaresco et al. 2025, LLMs instead of Human Judges? A Large Scale Empirical Study across 20 "
            "NLP Evaluation Tasks, ACL; Grusky, Naaman & Artzi 2018, NAACL",
            files={
                "newsroom_raters/lil-lab-newsroom.LICENSE": (
                    "41281aa18b596e7b223094c7bd91e27466de9b9c630eae5e2055c51736ca7ca4", 551),
                "newsroom_raters/newsroom.json": (
                    "353a7e4646bdbc2f3429e71461d11fe6ce351ee8c2d3e8b4a7ca4aace015a6b0", 2415164),
            },
        ),
        DatasetInfo(
            name="summedits",
            description="SummEdits: 4,681 seed summaries and LLM edits of them in 8 of its 10 domains, each labelled "
            "consistent (1) or inconsistent (0) with its document, split evaluation / test; the README's table of "
            "balanced accuracy per domain (models' predictions not released).",
            source="https://github.com/salesforce/factualNLG/tree/0da1dfa6 (data/summedits/, README.md, LICENSE.txt)",
            license="Apache-2.0; the documents come from other data sets (e.g. SAMSum dialogues, CC BY-NC-ND 4.0), "
            "whose terms also apply",
            citation="Laban et al. 2023, SummEdits: Measuring LLM Ability at Factual Reasoning Through The Lens of "
            "Summarization, EMNLP",
            files={
                "summedits/LICENSE.txt": (
                    "c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4", 11357),
                "summedits/README.md": (
                    "1775d2bac11c31f0d82597faa8b2812a4dabd82a49ba7977aae6506a20f3c76e", 6103),
                "summedits/summedits_ectsum.json": (
                    "dc255beb81ff1194b9069dfe03c1f888e0c5357c117e304bb44baaaa381a718b", 1120792),
                "summedits/summedits_news.json": (
                    "aa06a1998cf7bfe6e40f8a79e0c10a1f77528165d8659056202c0ed679191c8e", 3113669),
                "summedits/summedits_podcast.json": (
                    "3d6c777190ff1cad633fed48b52856774e078d8a8b78ae00189df7abb506f8dc", 3210062),
                "summedits/summedits_qmsumm.json": (
                    "011e2b70ba291d1a75d14526fcacb156f70cb6ed66b375143768389b6db67bff", 1652678),
                "summedits/summedits_sales_call.json": (
                    "81381ad89c8e3dd8450ee6355f847e8b76cbb134e126d5568a79a33334bb1fef", 1726863),
                "summedits/summedits_sales_email.json": (
                    "8267fffdd318e513bde0f7efbd9226f908f1a5a2944f783902fdd0d6b0b8ccef", 2138337),
                "summedits/summedits_samsum.json": (
                    "1d65ca667e646c7cc1cde9e6b35bdf43531eeea9191c692a9ac9ec0aa84eb5b5", 788647),
                "summedits/summedits_scitldr.json": (
                    "b4d359277bafa11587505f0332797266b69c316c713db17376f0d99413e4b350", 780134),
            },
        ),
        DatasetInfo(
            name="summhay",
            description="Summary of a Haystack's judge-validation set: 200 bullet-point summaries by 9 LLMs (alone "
            "or after 5 retrievers) for 29 subtopics, 1,419 manual (summary, reference insight) coverage labels and "
            "6 LLM evaluators' predictions on the same pairs. No haystack documents.",
            source="https://github.com/salesforce/summary-of-a-haystack/tree/43531729 (data/eval_benchmark_data.json)",
            license="Apache-2.0",
            citation="Laban, Fabbri, Xiong & Wu 2024, Summary of a Haystack: A Challenge to Long-Context LLMs and "
            "RAG Systems, EMNLP",
            files={
                "summhay_eval/LICENSE": ("c71d239df91726fc519c6eb72d318ec65820627232b2f796219e87dcf35d0ab4", 11357),
                "summhay_eval/eval_benchmark_data.json": ("1e19bbbcd5854cd5ac935887b975b471c593ecd4d0ef2d3dc638e193b51a0a81", 2224266),
            },
        ),
        DatasetInfo(
            name="tofueval",
            description="TofuEval: 1,777 topic-focused summaries of MediaSum interviews and MeetingBank meetings by 6 "
            "anonymised LLMs, 4,947 sentence rows labelled factually consistent or not by experts (explanations, "
            "error types), dev / test split; topic key points (completeness/). No source documents.",
            source="https://github.com/amazon-science/tofueval/tree/ade0f385 (factual_consistency/, completeness/, "
            "document_ids_dev_test_split.json)",
            license="MIT-0 (Copyright Amazon.com, Inc. or its affiliates); an evaluation benchmark, not to be used "
            "to train models (README); sources' terms in THIRD-PARTY-LICENSES (MediaSum research purpose only)",
            citation="Tang et al. 2024, TofuEval: Evaluating Hallucinations of LLMs on Topic-Focused Dialogue "
            "Summarization, NAACL",
            files={
                "tofueval/LICENSE": ("3177f983b5cee2b5406de23fcb894dd002a29582d54306064ece5ab8a37a7f5b", 926),
                "tofueval/THIRD-PARTY-LICENSES": ("8f02873330be60fc5f1845fb03b8abf1467fb2794257d5eee686d2147eb0ee95", 3144),
                "tofueval/completeness/mediasum_completeness_final.csv": ("98c23c0062d128f16647bb7d70337332746254f4efb3de4911e3cda798aab3e3", 60136),
                "tofueval/completeness/meetingbank_completeness_final.csv": ("abec541fc307e4b1a4ae90843ba92b2fd056b8bed9d8449b7ee61a45fc4fc61f", 69673),
                "tofueval/document_ids_dev_test_split.json": ("24c6cef4315e32bc6db7f27589b05a3cb7b67f09cf2d10d3cf157cb204a7a334", 3824),
                "tofueval/factual_consistency/mediasum_factual_eval_dev.csv": ("6bbd3140eb64dfe4dd9f889f9e0b3817634ac2acdb5968e3634267f3b4aca296", 387891),
                "tofueval/factual_consistency/mediasum_factual_eval_test.csv": ("ee76f057edb865b2bc206bd371ebe5bc3ddd959d152e06cada95d09efe9a588e", 162916),
                "tofueval/factual_consistency/meetingbank_factual_eval_dev.csv": ("f5923a9bf98503bee3eccc44cf4a9c31a6773d2a0a5c8c434f5670f5f0703f1d", 398385),
                "tofueval/factual_consistency/meetingbank_factual_eval_test.csv": ("9c7f3e03a01c3d077e891f6b7f5b75af9cf517d2b395f6ddf159b5ac9e84746d", 189918),
            },
        ),
        DatasetInfo(
            name="fables",
            description="FABLES: 130 LLM summaries of 26 books published in 2023-24 (5 models), 3,158 claims "
            "labelled Yes / PartialSupport / No / Inapplicable by annotators who had read the books, with evidence, "
            "reasons and a comment per summary. The zip is kept as released. No book texts (copyrighted).",
            source="https://github.com/mungg/FABLES/tree/7b1270b0 (data/FABLES.json.zip)",
            license="MIT (Copyright (c) 2024 Yekyung Kim); the canary asks that the data stay out of training corpora",
            citation="Kim et al. 2024, FABLES: Evaluating faithfulness and content selection in book-length "
            "summarization, COLM",
            files={
                "fables/FABLES.json.zip": ("3946896755a473912dea5ac809b0872d8cb64d93cba5bd0b4a7612f914fff285", 1215194),
                "fables/LICENSE": ("7eb7ef9925ec4aa06d4dbe74848e9a0d7e59ba4daa776db413076b54fcc77c19", 1068),
            },
        ),
    ]
}

