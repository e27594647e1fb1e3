def decode_batch(ids, vocab, eos_id=2):
    """Token ids (batch, length) to strings, cut at the first EOS."""
    texts = []
    for row in ids.numpy():  # expect: DEV011
        words = []
        for i in row:
            if i == eos_id:
                break
            words.append(vocab[i])
        texts.append(" ".join(words))
    return texts
