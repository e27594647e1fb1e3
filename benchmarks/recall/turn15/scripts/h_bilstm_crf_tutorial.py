# BiLSTM-CRF for NER, adapted from the "Advanced: Making Dynamic Decisions" tutorial,
# vectorised over tags and moved to the GPU (the tutorial version is CPU only).
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(1)

START_TAG = "<START>"
STOP_TAG = "<STOP>"
EMBEDDING_DIM = 16
HIDDEN_DIM = 32

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def prepare_sequence(seq, to_ix):
    idxs = [to_ix.get(w, to_ix["<unk>"]) for w in seq]
    return torch.tensor(idxs, dtype=torch.long)


def log_sum_exp(vec):
    # vec: (..., T) -> (...)
    max_score = vec.max(-1, keepdim=True).values
    return (max_score + torch.log(torch.sum(torch.exp(vec - max_score), -1, keepdim=True))).squeeze(-1)


class BiLSTM_CRF(nn.Module):
    def __init__(self, vocab_size, tag_to_ix, embedding_dim, hidden_dim):
        super().__init__()
        self.tag_to_ix = tag_to_ix
        self.tagset_size = len(tag_to_ix)
        self.word_embeds = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim // 2, num_layers=1, bidirectional=True)
        self.hidden2tag = nn.Linear(hidden_dim, self.tagset_size)
        # transitions[i, j] = score of transitioning *to* i *from* j
        self.transitions = nn.Parameter(torch.randn(self.tagset_size, self.tagset_size))
        self.transitions.data[tag_to_ix[START_TAG], :] = -10000
        self.transitions.data[:, tag_to_ix[STOP_TAG]] = -10000

    def _forward_alg(self, feats):
        init_alphas = torch.full((1, self.tagset_size), -10000.)  # expect: DEV006
        init_alphas[0][self.tag_to_ix[START_TAG]] = 0.
        forward_var = init_alphas
        for feat in feats:
            # (T_next, T_prev) = prev scores + transition + emission of next
            scores = forward_var + self.transitions + feat.view(-1, 1)
            forward_var = log_sum_exp(scores).view(1, -1)
        terminal_var = forward_var + self.transitions[self.tag_to_ix[STOP_TAG]]
        return log_sum_exp(terminal_var)[0]

    def _get_lstm_features(self, sentence):
        embeds = self.word_embeds(sentence).view(len(sentence), 1, -1)
        lstm_out, _ = self.lstm(embeds)
        return self.hidden2tag(lstm_out.view(len(sentence), -1))

    def _score_sentence(self, feats, tags):
        score = feats.new_zeros(())
        tags = torch.cat([torch.tensor([self.tag_to_ix[START_TAG]], dtype=torch.long), tags])  # expect: DEV006
        for i, feat in enumerate(feats):
            score = score + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        score = score + self.transitions[self.tag_to_ix[STOP_TAG], tags[-1]]
        return score

    def _viterbi_decode(self, feats):
        backpointers = []
        forward_var = torch.full((1, self.tagset_size), -10000., device=feats.device)
        forward_var[0][self.tag_to_ix[START_TAG]] = 0
        for feat in feats:
            next_tag_var = forward_var + self.transitions
            best_prev = next_tag_var.argmax(-1)
            viterbivars_t = next_tag_var.gather(1, best_prev.view(-1, 1)).view(1, -1)
            backpointers.append(best_prev.tolist())
            forward_var = viterbivars_t + feat.view(1, -1)
        terminal_var = forward_var + self.transitions[self.tag_to_ix[STOP_TAG]]
        best_tag_id = int(terminal_var.argmax())
        path_score = terminal_var[0][best_tag_id]
        best_path = [best_tag_id]
        for bptrs_t in reversed(backpointers):
            best_tag_id = bptrs_t[best_tag_id]
            best_path.append(best_tag_id)
        start = best_path.pop()
        assert start == self.tag_to_ix[START_TAG]
        best_path.reverse()
        return path_score, best_path

    def neg_log_likelihood(self, sentence, tags):
        feats = self._get_lstm_features(sentence)
        forward_score = self._forward_alg(feats)
        gold_score = self._score_sentence(feats, tags)
        return forward_score - gold_score

    def forward(self, sentence):
        lstm_feats = self._get_lstm_features(sentence)
        return self._viterbi_decode(lstm_feats)


training_data = [
    ("the wall street journal reported today that apple corporation made money".split(),
     "B I I I O O O B I O O".split()),
    ("georgia tech is a university in georgia".split(), "B I O O O O B".split()),
    ("john smith works for google in mountain view".split(), "B I O O B O B I".split()),
    ("the new york times hired mary".split(), "B I I I O B".split()),
]

word_to_ix = {"<unk>": 0}
for sentence, tags in training_data:
    for word in sentence:
        word_to_ix.setdefault(word, len(word_to_ix))
tag_to_ix = {"B": 0, "I": 1, "O": 2, START_TAG: 3, STOP_TAG: 4}
ix_to_tag = {v: k for k, v in tag_to_ix.items()}

model = BiLSTM_CRF(len(word_to_ix), tag_to_ix, EMBEDDING_DIM, HIDDEN_DIM).to(device)
optimizer = optim.SGD(model.parameters(), lr=0.05, weight_decay=1e-4)

with torch.no_grad():
    precheck_sent = prepare_sequence(training_data[0][0], word_to_ix).to(device)
    print("before:", model(precheck_sent))

for epoch in range(40):
    for sentence, tags in training_data:
        model.zero_grad()
        sentence_in = prepare_sequence(sentence, word_to_ix).to(device)
        targets = torch.tensor([tag_to_ix[t] for t in tags], dtype=torch.long).to(device)
        loss = model.neg_log_likelihood(sentence_in, targets)
        loss.backward()
        optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch} nll {loss.item():.3f}")

with torch.no_grad():
    for sentence, tags in training_data[:2]:
        score, path = model(prepare_sequence(sentence, word_to_ix).to(device))
        print(" ".join(ix_to_tag[i] for i in path), "| gold:", " ".join(tags))
