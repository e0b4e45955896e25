/** A person made up for the personal-data tests, and a scan of the whole database for them. */
import { randomBytes } from 'node:crypto';
import type { mongo } from 'mongoose';

export interface Person {
  name: string;
  /** The unique word of the name: found alone in a text, it still names them. */
  surname: string;
  email: string;
  /** 07XXXXXXXX */
  phone: string;
  /** As typed on an order: "0781 354 880". */
  spaced: string;
}

/** A person of their own: a unique surname, e-mail and phone. */
export function newPerson(firstName = 'Wairimu'): Person {
  const tag = randomBytes(4).toString('hex');
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  const phone = `07${digits}`;
  const surname = `Zq${tag}`;
  return {
    name: `${firstName} ${surname}`,
    surname,
    email: `${firstName.toLowerCase()}.${tag}@example.co.ke`,
    phone,
    spaced: `${phone.slice(0, 4)} ${phone.slice(4, 7)} ${phone.slice(7)}`,
  };
}

/** What names the person anywhere: the name, the unique word, the e-mail, each phone spelling. */
export function needles(p: Person): string[] {
  const local = p.phone.slice(1);
  return [
    p.name.toLowerCase(),
    p.surname.toLowerCase(),
    p.email.toLowerCase(),
    `+254${local}`,
    `254${local}`,
    p.phone,
    local,
    p.spaced,
  ];
}

/** Every document of every collection that names the person, as `collection: "word" in text`. */
export async function personHits(db: mongo.Db, p: Person): Promise<string[]> {
  const found: string[] = [];
  const words = needles(p);
  for (const { name } of await db.listCollections().toArray()) {
    for await (const doc of db.collection(name).find({})) {
      const text = JSON.stringify(doc).toLowerCase();
      const hit = words.find((w) => text.includes(w));
      if (hit) found.push(`${name}: "${hit}" in ${text.slice(0, 400)}`);
    }
  }
  return found;
}
