/** The app offers only what the server accepts on a chat another agent holds (docs/SECURITY.md §9). */
import { describe, expect, it } from 'vitest';
import { mayActOnChat } from './chatRights';
import { mayTransfer } from './components/TransferMenu';
import type { AgentDto, ChatDto } from '../../../protocol/agent';

const agent = (id: number, role: 'admin' | 'agent' = 'agent') => ({ id, role }) as AgentDto;
const chat = (status: ChatDto['status'], accepted_by: number | null) => ({ status, accepted_by }) as ChatDto;

describe('mayActOnChat', () => {
  it('is the holder’s and administrators’ for a held chat, anyone’s for a waiting one', () => {
    expect(mayActOnChat(agent(1), chat('active', 1))).toBe(true);
    expect(mayActOnChat(agent(2), chat('active', 1))).toBe(false);
    expect(mayActOnChat(agent(9, 'admin'), chat('active', 1))).toBe(true);
    expect(mayActOnChat(agent(2), chat('pending', null))).toBe(true);
    // A finished chat stays its last holder's (blacklisting).
    expect(mayActOnChat(agent(2), chat('finished', 1))).toBe(false);
    expect(mayActOnChat(agent(2), chat('finished', null))).toBe(true);
  });

  it('decides transfers too, never of a finished chat', () => {
    expect(mayTransfer(agent(2), chat('active', 1))).toBe(false);
    expect(mayTransfer(agent(1), chat('active', 1))).toBe(true);
    expect(mayTransfer(agent(1), chat('finished', 1))).toBe(false);
  });
});
