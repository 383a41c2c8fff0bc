// @ts-check
// Example hands for the rules pages: each one's split, points and deadwood are the engine's
// own answer (tests/test_rules_examples.py checks every entry against the evaluator; it reads
// the array from its first opening bracket, so the type below uses Array<…>).
/** @type {Array<{cards: Array<string>, category: string, hand_points: number, poker_hand: Array<string>, deadwood: Array<string>, deadwood_points: number, score: number, knock_count: number, can_knock: boolean}>} */
export const EXAMPLES = [
  {"cards": ["Ks", "Jd", "9c", "6h", "3s", "2d", "4c", "Ah"], "category": "high_card", "hand_points": 0, "poker_hand": ["Ks", "Jd", "9c", "6h", "4c"], "deadwood": ["3s", "Ah", "2d"], "deadwood_points": 6, "score": -6, "knock_count": 6, "can_knock": true},
  {"cards": ["9s", "9h", "Kc", "6d", "2s", "3c", "4h", "7d"], "category": "pair", "hand_points": 15, "poker_hand": ["9s", "9h", "Kc", "7d", "6d"], "deadwood": ["2s", "4h", "3c"], "deadwood_points": 9, "score": 6, "knock_count": 9, "can_knock": true},
  {"cards": ["8s", "8d", "4c", "4h", "Kd", "Js", "2c", "Th"], "category": "two_pair", "hand_points": 30, "poker_hand": ["8s", "8d", "4h", "4c", "Kd"], "deadwood": ["Js", "Th", "2c"], "deadwood_points": 22, "score": 8, "knock_count": 10, "can_knock": true},
  {"cards": ["7s", "7h", "7d", "Ac", "2d", "3s", "5c", "Kh"], "category": "three_of_a_kind", "hand_points": 40, "poker_hand": ["7s", "7h", "7d", "Kh", "5c"], "deadwood": ["3s", "2d", "Ac"], "deadwood_points": 6, "score": 34, "knock_count": 6, "can_knock": true},
  {"cards": ["5s", "6h", "7d", "8c", "9s", "Ah", "2c", "3d"], "category": "straight", "hand_points": 50, "poker_hand": ["5s", "6h", "7d", "8c", "9s"], "deadwood": ["Ah", "3d", "2c"], "deadwood_points": 6, "score": 44, "knock_count": 6, "can_knock": true},
  {"cards": ["2h", "6h", "9h", "Jh", "Kh", "As", "3c", "4d"], "category": "flush", "hand_points": 60, "poker_hand": ["Kh", "Jh", "9h", "6h", "2h"], "deadwood": ["As", "4d", "3c"], "deadwood_points": 8, "score": 52, "knock_count": 6, "can_knock": true},
  {"cards": ["Qs", "Qh", "Qd", "3c", "3s", "Ah", "2d", "4c"], "category": "full_house", "hand_points": 70, "poker_hand": ["Qs", "Qh", "Qd", "3s", "3c"], "deadwood": ["Ah", "2d", "4c"], "deadwood_points": 7, "score": 63, "knock_count": 6, "can_knock": true},
  {"cards": ["6s", "6h", "6d", "6c", "Ah", "2s", "3d", "Kc"], "category": "four_of_a_kind", "hand_points": 85, "poker_hand": ["6s", "6h", "6d", "6c", "Kc"], "deadwood": ["2s", "Ah", "3d"], "deadwood_points": 6, "score": 79, "knock_count": 6, "can_knock": true},
  {"cards": ["5c", "6c", "7c", "8c", "9c", "Ad", "2h", "3s"], "category": "straight_flush", "hand_points": 100, "poker_hand": ["5c", "6c", "7c", "8c", "9c"], "deadwood": ["3s", "2h", "Ad"], "deadwood_points": 6, "score": 94, "knock_count": 6, "can_knock": true},
  {"cards": ["Ts", "Js", "Qs", "Ks", "As", "2d", "3h", "4c"], "category": "royal_flush", "hand_points": 120, "poker_hand": ["Ts", "Js", "Qs", "Ks", "As"], "deadwood": ["3h", "2d", "4c"], "deadwood_points": 9, "score": 111, "knock_count": 6, "can_knock": true},
  {"cards": ["Ts", "Js", "Qs", "9h", "9d", "JK", "2c", "3d"], "category": "pair", "hand_points": 15, "poker_hand": ["9h", "9d", "Qs", "Js", "Ts"], "deadwood": ["3d", "2c", "JK"], "deadwood_points": 3, "score": 12, "knock_count": 3, "can_knock": true},
];
